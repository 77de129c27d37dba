import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageEnvelope } from '#shared/schemas/common.ts';
import type {
  ConfirmTwoStepBody,
  DisableTwoStepBody,
  RecoveryCodesEnvelope,
  RenewRecoveryCodesBody,
  TwoStepSetupEnvelope,
  TwoStepStatusEnvelope,
} from '#shared/schemas/two-step.ts';
import { apiRequest } from '#web/lib/api-client.ts';

export const twoStepKey = ['account', 'two-step'] as const;

export async function getTwoStep(signal?: AbortSignal): Promise<TwoStepStatusEnvelope['data']['twoStep']> {
  return (await apiRequest<TwoStepStatusEnvelope>('/account/two-step', { signal })).data.twoStep;
}

export const twoStepQueryOptions = () => queryOptions({ queryKey: twoStepKey, queryFn: ({ signal }) => getTwoStep(signal) });

export function useTwoStep() {
  return useQuery(twoStepQueryOptions());
}

export async function startTwoStepSetup(): Promise<TwoStepSetupEnvelope['data']> {
  return (await apiRequest<TwoStepSetupEnvelope>('/account/two-step/setup', { method: 'POST' })).data;
}

export function useStartTwoStepSetup() {
  return useMutation({ mutationFn: startTwoStepSetup });
}

export async function confirmTwoStep(body: ConfirmTwoStepBody): Promise<string[]> {
  return (await apiRequest<RecoveryCodesEnvelope>('/account/two-step/confirm', { method: 'POST', body })).data.recoveryCodes;
}

/** Turning it on changes the status only once the recovery codes were saved (see the section). */
export function useConfirmTwoStep() {
  return useMutation({ mutationFn: confirmTwoStep });
}

export async function disableTwoStep(body: DisableTwoStepBody): Promise<MessageEnvelope> {
  return apiRequest<MessageEnvelope>('/account/two-step/disable', { method: 'POST', body });
}

export function useDisableTwoStep() {
  const client = useQueryClient();
  return useMutation({ mutationFn: disableTwoStep, onSuccess: () => client.invalidateQueries({ queryKey: twoStepKey }) });
}

export async function renewRecoveryCodes(body: RenewRecoveryCodesBody): Promise<string[]> {
  return (await apiRequest<RecoveryCodesEnvelope>('/account/two-step/recovery-codes', { method: 'POST', body })).data.recoveryCodes;
}

/** The new codes are shown once by the section; the count left changes once they were saved. */
export function useRenewRecoveryCodes() {
  return useMutation({ mutationFn: renewRecoveryCodes });
}
