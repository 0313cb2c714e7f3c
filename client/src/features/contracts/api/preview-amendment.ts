import type { ContractPayloadLine } from '@shared/contracts/contract-form-values';
import type { AmendmentPreview } from '@shared/contracts/contract-responses';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * What adding or ending a line will bill, before it is confirmed: the server runs the amendment and rolls it
 * back (nothing is written). A mutation, so that a preview is asked for when the person asks for it.
 */
export const previewAddContractLine = ({ id, line }: { id: string; line: ContractPayloadLine }) =>
  api<AmendmentPreview>('POST', `/api/contracts/${encodeURIComponent(id)}/lines/preview`, line);

export const previewEndContractLine = ({
  id,
  lineId,
  endDate,
}: {
  id: string;
  lineId: string;
  endDate: string | null;
}) =>
  api<AmendmentPreview>(
    'POST',
    `/api/contracts/${encodeURIComponent(id)}/lines/${encodeURIComponent(lineId)}/end/preview`,
    { endDate },
  );

export const usePreviewAddContractLine = () => useMutation({ mutationFn: previewAddContractLine });
export const usePreviewEndContractLine = () => useMutation({ mutationFn: previewEndContractLine });
