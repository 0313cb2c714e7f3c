import type { IoVerifyResult } from '@shared/contracts/insertion-orders';
import { useMutation } from '@tanstack/react-query';
import { apiForm } from '@/lib/api-client';

/** POST /api/contracts/{id}/io/verify: does this PDF's SHA-256 match a version of the contract, as sent or signed? */
export const verifyInsertionOrderFile = (contractId: string, file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiForm<IoVerifyResult>('POST', `/api/contracts/${encodeURIComponent(contractId)}/io/verify`, form);
};

export function useVerifyInsertionOrderFile(contractId: string) {
  return useMutation({ mutationFn: (file: File) => verifyInsertionOrderFile(contractId, file) });
}
