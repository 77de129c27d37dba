import { t } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import type { DeleteAccountBody } from '#shared/schemas/account.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export async function deleteAccount(body: DeleteAccountBody): Promise<void> {
  await apiRequest<undefined>('/users/me', { method: 'DELETE', body, expectNoContent: true, fallbackMessage: t`The account could not be deleted.` });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
