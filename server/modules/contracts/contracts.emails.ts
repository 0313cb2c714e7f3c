import type { CompanyProfile } from '@shared/contracts/company-vocabulary';
import { advertiserBilledTo, shortContractId } from '@shared/contracts/contract-vocabulary';
import { PASSWORD_LINK_HOURS } from '@shared/contracts/invitations';
import { formatDocumentDate } from '@shared/document-date';
import { formatCents } from '@shared/money';
import {
  type CustomerRecipient,
  emailButton,
  emailLayout,
  emailOpening,
  escapeHtml,
  type Fact,
  PRODUCT_NAME,
  plainText,
} from '../../lib/email';
import type { EmailMessage } from '../../lib/mailer';
import type { ContractPreview } from '../billing/billing.service';
import { reviewAndSignParts } from '../insertion-orders/insertion-orders.emails';

/** The insertion order version the e-mail asks the customer to review and sign (null: none to sign). */
export type ContractEmailIo = { version: number; url: string } | null;

/** What an e-mail about a contract shows of it (figures in cents). */
export type ContractEmailFacts = {
  id: string;
  title: string | null;
  description: string | null;
  startDate: string;
  termMonths: number | null;
  autoStopDate: string | null;
  /** What it will bill, from the billing engine (billing.service previewContracts). */
  figures: ContractPreview;
  /** Billed to the advertiser's agency (product.md section 20): both names; null when billed to the customer. */
  billedTo?: { advertiserName: string; billToName: string } | null;
};

/**
 * "Send to Customer" in pay_link mode: the contract, the insertion order to review and sign ("Review and
 * sign", first: payment needs it accepted) and its secure payment link.
 */
export function payLinkEmail(input: {
  contract: ContractEmailFacts;
  customer: CustomerRecipient;
  company: CompanyProfile;
  paymentUrl: string;
  io?: ContractEmailIo;
}): EmailMessage {
  const { contract, customer, company, paymentUrl } = input;
  const name = contractName(contract);
  const intro = input.io
    ? `Your advertising contract ${name} is ready. Review and sign its insertion order, then pay securely online with the links below.`
    : `Your advertising contract ${name} is ready. You can review it and pay securely online with the link below.`;
  const facts = contractFacts(contract);
  const opening = emailOpening(customer, intro, facts);
  const sign = input.io ? reviewAndSignParts(input.io.url, input.io.version) : null;
  const text = plainText(
    [
      ...opening.lines,
      ...(sign?.lines ?? []),
      `Pay securely: ${paymentUrl}`,
      '',
      'The link is personal to your contract; please do not share it.',
      '',
    ],
    company,
  );
  const html = emailLayout(
    `${opening.html}
${sign?.html ?? ''}
${emailButton(paymentUrl, 'Pay securely')}
<p style="color:#555">Or open this address: ${escapeHtml(paymentUrl)}<br>The link is personal to your contract; please do not share it.</p>`,
    company,
  );
  return {
    to: customer.email,
    subject: `Your contract ${name} is ready for payment`,
    text,
    html,
    entity: 'contract',
    entityId: contract.id,
  };
}

/**
 * "Send to Customer" in portal mode: the contract and an invitation to the client portal, with the sign-in
 * e-mail and, while the account has no password yet, a single-use set-password link (never a password).
 */
export function portalInvitationEmail(input: {
  contract: ContractEmailFacts;
  customer: CustomerRecipient;
  company: CompanyProfile;
  portalUrl: string;
  loginEmail: string;
  setPasswordUrl: string | null;
  io?: ContractEmailIo;
}): EmailMessage {
  const { contract, customer, company, portalUrl, loginEmail, setPasswordUrl } = input;
  const name = contractName(contract);
  const intro = `Your advertising contract ${name} is ready. You can review it and manage your payments in the ${PRODUCT_NAME} client portal.`;
  const facts = contractFacts(contract);
  const access = setPasswordUrl
    ? [
        `Your client portal account (sign-in e-mail: ${loginEmail}) is ready. Choose your password with this link:`,
        `Set your password: ${setPasswordUrl}`,
        `The link works once and expires in ${PASSWORD_LINK_HOURS} hours.`,
      ]
    : [`Sign in with your existing client portal account (${loginEmail}).`];
  const opening = emailOpening(customer, intro, facts);
  const sign = input.io ? reviewAndSignParts(input.io.url, input.io.version) : null;
  const text = plainText(
    [...opening.lines, ...(sign?.lines ?? []), ...access, '', `Client portal: ${portalUrl}`, ''],
    company,
  );
  const html = emailLayout(
    `${opening.html}
${sign?.html ?? ''}
<p>${access.map(escapeHtml).join('<br>')}</p>
${emailButton(setPasswordUrl ?? portalUrl, setPasswordUrl ? 'Set your password' : 'Open the client portal')}`,
    company,
  );
  return {
    // A set-password link goes to the account's own address only.
    to: setPasswordUrl ? loginEmail : customer.email,
    subject: `Your contract ${name} is ready in the client portal`,
    text,
    html,
    entity: 'contract',
    entityId: contract.id,
  };
}

function contractName(contract: ContractEmailFacts): string {
  return contract.title ?? `#${shortContractId(contract.id)}`;
}

const day = formatDocumentDate;

function contractFacts(contract: ContractEmailFacts): Fact[] {
  const lines: Fact[] = [];
  if (contract.billedTo) {
    // "Advertiser: Bella Notte Trattoria — Billed to: Cardinal Media", as a fact's "label: value".
    const named = advertiserBilledTo(contract.billedTo.advertiserName, contract.billedTo.billToName);
    const colon = named.indexOf(': ');
    lines.push([named.slice(0, colon), named.slice(colon + 2)]);
  }
  if (contract.description) lines.push(['Description', contract.description]);
  lines.push(['Start date', day(contract.startDate)]);
  lines.push([
    'Term',
    contract.termMonths === null
      ? 'Indefinite'
      : `${contract.termMonths} months${contract.autoStopDate ? ` (until ${day(contract.autoStopDate)})` : ''}`,
  ]);
  const { figures } = contract;
  const first = figures.issuedFirstInvoice ?? { ...figures.firstInvoice, number: null };
  lines.push([
    'First invoice',
    `${formatCents(first.totalCents)} on ${day(first.periodStart)} (due ${day(first.dueDate)})`,
  ]);
  if (figures.monthlyCents > 0) lines.push(['Monthly amount', `${formatCents(figures.monthlyCents)} / month`]);
  if (figures.seasonalMonthlyCents !== figures.monthlyCents) {
    lines.push(['In season (Oct–Dec)', `${formatCents(figures.seasonalMonthlyCents)} / month`]);
  }
  for (const charge of figures.oneTimeCharges) {
    const price = charge.seasonal ? ' at the in-season price' : '';
    lines.push([
      charge.description,
      `${formatCents(charge.amountCents)} once${price}, on the invoice of ${day(charge.billedOn)}`,
    ]);
  }
  if (figures.termValueCents !== null) {
    const months = figures.termPeriods === 1 ? '1 month' : `${figures.termPeriods} months`;
    lines.push(['Contract value', `${formatCents(figures.termValueCents)} over ${months}, before tax`]);
  }
  return lines;
}
