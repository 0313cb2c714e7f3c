/**
 * Creatives: files a client uploads for one of its contracts (product.md section 8). The type is decided by
 * the file's content on the server; the browser's chooser only suggests the accepted kinds.
 */

export const CREATIVE_KINDS = ['image', 'video', 'pdf', 'doc', 'docx'] as const;
export type CreativeKind = (typeof CREATIVE_KINDS)[number];

export const CREATIVE_KIND_LABELS: Record<CreativeKind, string> = {
  image: 'Image',
  video: 'Video',
  pdf: 'PDF',
  doc: 'Word document',
  docx: 'Word document',
};

/** The largest creative accepted: 10 MiB (the upload hint's "10MB"). */
export const MAX_CREATIVE_BYTES = 10 * 1024 * 1024;

/** The upload chooser's hint (ui-spec.md, Client Portal). */
export const CREATIVE_UPLOAD_HINT = 'Up to 10MB each for images, videos, pdf, doc, docx';

/** The chooser's `accept` attribute: a suggestion to the browser, never trusted by the server. */
export const CREATIVE_ACCEPT =
  'image/*,video/*,application/pdf,.pdf,application/msword,.doc,application/vnd.openxmlformats-officedocument.wordprocessingml.document,.docx';

export const CREATIVE_MESSAGES = {
  tooLarge: 'The file is larger than 10 MB. Upload files of up to 10 MB each.',
  notAccepted:
    "This file's content is not an image, a video, a PDF or a Word document (doc, docx), so it cannot be uploaded.",
  empty: 'The file is empty.',
  noFile: 'Choose a file to upload.',
  oneFile: 'Upload one file at a time.',
  contractRequired: 'Choose the contract the creative is for.',
  notMultipart: 'Send the file as multipart/form-data, with the fields contractId and file.',
  interrupted: 'The upload was interrupted. Please try again.',
  deleteRefused: 'Only the person who uploaded a creative, or staff who manage its contract, can delete it.',
  missingFile: 'The file of this creative is missing from the storage.',
} as const;

/** An upload refused by the per-user hourly cap: when the next one is accepted. */
export function tooManyUploadsMessage(perHour: number, retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `You can upload ${perHour} files per hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** An upload refused by the customer's storage quota. */
export function storageFullMessage(quotaMegabytes: number): string {
  return `Your creative storage is full (${quotaMegabytes} MB in all). Delete creatives you no longer need, or ask us for more room.`;
}

/** Why no creative can be uploaded for a contract in this status (null: uploads are open). */
export function creativeUploadRefusal(status: string): string | null {
  return status === 'canceled' || status === 'completed'
    ? `This contract is ${status}, so no creatives can be uploaded for it.`
    : null;
}

/** A creative as the API answers it (GET /api/contracts/{id}/creatives, GET /api/client/creatives, upload). */
export type Creative = {
  id: string;
  contractId: string;
  contractTitle: string | null;
  originalName: string;
  kind: CreativeKind;
  /** The type detected from the content; downloads are served with it. */
  mimeType: string;
  extension: string;
  size: number;
  sha256: string;
  uploadedAt: string;
  uploadedBy: string | null;
  uploadedByName: string | null;
  /** Whether the caller may delete it (its uploader, or staff who may change the contract). */
  canDelete: boolean;
};

/** 1536 -> "1.5 KB"; 10485760 -> "10 MB" (binary units, as the 10 MB limit is). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
