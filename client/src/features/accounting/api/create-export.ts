import type { AccountingExportInput } from '@shared/contracts/accounting';
import type { AccountingExport } from '@shared/contracts/accounting-vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { exportsQueryKey } from './get-exports';

export const createExport = (input: AccountingExportInput) =>
  api<AccountingExport>('POST', '/api/accounting/exports', input);

/** Makes a batch; the list refreshes. The form shows errors (a field's under it, a refusal above the button). */
export function useCreateExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createExport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: exportsQueryKey }),
  });
}
