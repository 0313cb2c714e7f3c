import { formatDocumentInstant } from '@shared/document-date';
import {
  type EmailRecipient,
  type EmailSender,
  emailButton,
  emailLayout,
  emailOpening,
  escapeHtml,
  type Fact,
  plainText,
} from '../../lib/email';
import type { EmailMessage, OutboxAttachment } from '../../lib/mailer';

/** What the signed-record e-mail says of the version. */
export type SignedRecordFacts = {
  contractId: string;
  contractName: string;
  version: number;
  signerName: string;
  acceptedAt: string;
  pdfSha256: string;
  signedSha256: string;
};

/** The file name of a signed IO as attached and downloaded. */
export const signedIoFilename = (contractNumber: string, version: number) =>
  `insertion-order-${contractNumber}-v${version}-signed.pdf`;
export const ioFilename = (contractNumber: string, version: number) =>
  `insertion-order-${contractNumber}-v${version}.pdf`;

/**
 * After acceptance, to the customer and to the rep: the signed record attached (the IO pages and the signing
 * certificate). No link in it: the file is the record. The customer's copy greets its contact person and ends
 * with the company's footer (`sender`); the rep's has none.
 */
export function signedRecordEmail(input: {
  facts: SignedRecordFacts;
  recipient: EmailRecipient & { contactPerson?: string | null };
  audience: 'customer' | 'rep';
  sender: EmailSender;
  attachment: OutboxAttachment;
  /** The rep's copy: what the contract waits for now ("Signed, ready to activate: ..."). */
  nextStep?: string | null;
}): EmailMessage {
  const { facts, recipient, audience, sender } = input;
  const intro =
    audience === 'customer'
      ? `Thank you for accepting the insertion order for ${facts.contractName}. The signed copy is attached for your records.`
      : `${facts.signerName} accepted version ${facts.version} of the insertion order for ${facts.contractName}. The signed copy is attached.`;
  const rows: Fact[] = [
    ['Insertion order', `${facts.contractName}, version ${facts.version}`],
    ['Signed by', facts.signerName],
    ['Accepted at', formatDocumentInstant(facts.acceptedAt)],
    ['Original PDF SHA-256', facts.pdfSha256],
    ['Signed PDF SHA-256', facts.signedSha256],
    ...(input.nextStep ? ([['Next step', input.nextStep]] as Fact[]) : []),
  ];
  const opening = emailOpening(recipient, intro, rows);
  return {
    to: recipient.email,
    subject: `Signed insertion order: ${facts.contractName} (version ${facts.version})`,
    text: plainText([...opening.lines, ''], sender),
    html: emailLayout(opening.html, sender),
    entity: 'contract',
    entityId: facts.contractId,
    attachments: [input.attachment],
  };
}

/** The "Review and sign" part of the send e-mail (contracts.emails.ts adds it to what it sends). */
export function reviewAndSignParts(ioUrl: string, version: number): { lines: string[]; html: string } {
  const label = version > 1 ? `Review and sign (version ${version})` : 'Review and sign';
  return {
    lines: [
      `Review and sign the insertion order first: ${ioUrl}`,
      'The link is personal to your contract; please do not share it.',
      '',
    ],
    html: `${emailButton(ioUrl, label)}
<p style="color:#555">Or open this address: ${escapeHtml(ioUrl)}</p>`,
  };
}
