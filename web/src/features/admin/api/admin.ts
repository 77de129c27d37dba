import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountEnvelope, AccountsEnvelope, AuditEnvelope, InviteBody, SettingsEnvelope } from '#shared/schemas/admin.ts';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** The admin page's calls (the API answers 404 to anyone who is not an instance admin). */
export const adminKey = ['admin'] as const;

export function useAccounts(q: string, page: number) {
  return useQuery({
    ...queryOptions({
      queryKey: [...adminKey, 'accounts', q, page],
      queryFn: async ({ signal }) => (await apiRequest<AccountsEnvelope>('/admin/accounts', { signal, query: { q: q === '' ? undefined : q, page } })).data,
    }),
    placeholderData: keepPreviousData,
  });
}

export function useAudit(page: number) {
  return useQuery({
    queryKey: [...adminKey, 'audit', page],
    queryFn: async ({ signal }) => (await apiRequest<AuditEnvelope>('/admin/audit', { signal, query: { page } })).data,
    placeholderData: keepPreviousData,
  });
}

export function useServerSettings() {
  return useQuery({
    queryKey: [...adminKey, 'settings'],
    queryFn: async ({ signal }) => (await apiRequest<SettingsEnvelope>('/admin/settings', { signal })).data.settings,
  });
}

export type AccountAction = 'deactivate' | 'reactivate' | 'reset-second-step';

/** An action on an account; the accounts and the audit log are read again after it. */
export function useAccountAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: AccountAction }) =>
      apiRequest<AccountEnvelope>(`/admin/accounts/${encodeURIComponent(id)}/${action}`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKey }),
  });
}

export function useInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteBody) => apiRequest<MessageEnvelope>('/admin/invitations', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...adminKey, 'audit'] }),
  });
}
