import { PASSWORD_LINK_HOURS } from '@shared/contracts/invitations';
import {
  type EmailRecipient,
  type EmailSender,
  emailButton,
  emailLayout,
  escapeHtml,
  greeting,
  PRODUCT_NAME,
  plainText,
} from '../../lib/email';
import type { EmailMessage } from '../../lib/mailer';

/** Whom the link is for: a customer's account greets its contact person by first name, else the name. */
export type Recipient = EmailRecipient & { contactPerson?: string | null };

/**
 * A set-password link: the invitation to a new client-portal account, or a password reset. The link is
 * the one secret an e-mail may carry (it is its purpose), and it works once, for PASSWORD_LINK_HOURS.
 * `sender`: the company profile for a customer's account (its footer ends the e-mail), null for staff.
 */
export function setPasswordEmail(input: {
  recipient: Recipient;
  purpose: 'invite' | 'reset';
  url: string;
  entity: string;
  entityId: string;
  sender: EmailSender;
}): EmailMessage {
  const { recipient, purpose, url, sender } = input;
  const intro =
    purpose === 'invite'
      ? `You have been invited to the ${PRODUCT_NAME} client portal, where you can follow your advertising contracts, pay invoices and send us your creatives.`
      : `A password reset was requested for your ${PRODUCT_NAME} account.`;
  const action = purpose === 'invite' ? 'Set your password' : 'Choose a new password';
  const lines = [
    `Sign-in e-mail: ${recipient.email}`,
    `The link works once and expires in ${PASSWORD_LINK_HOURS} hours.`,
    ...(purpose === 'reset'
      ? ['If you did not expect this e-mail, you can ignore it: your password stays as it is.']
      : []),
  ];
  const text = plainText([greeting(recipient), '', intro, '', `${action}: ${url}`, '', ...lines, ''], sender);
  const html = emailLayout(
    `<p>${escapeHtml(greeting(recipient))}</p>
<p>${escapeHtml(intro)}</p>
${emailButton(url, action)}
<p style="color:#555">${lines.map(escapeHtml).join('<br>')}<br>Or open this address: ${escapeHtml(url)}</p>`,
    sender,
  );
  return {
    to: recipient.email,
    subject:
      purpose === 'invite' ? `Your ${PRODUCT_NAME} client portal invitation` : `Reset your ${PRODUCT_NAME} password`,
    text,
    html,
    entity: input.entity,
    entityId: input.entityId,
  };
}

/** An invitation to an account that already has a password: a link to the portal, nothing secret. */
export function portalSignInEmail(input: {
  recipient: Recipient;
  portalUrl: string;
  entity: string;
  entityId: string;
  sender: EmailSender;
}): EmailMessage {
  const { recipient, portalUrl, sender } = input;
  const intro = `Your advertising contracts, invoices and creatives are waiting for you in the ${PRODUCT_NAME} client portal.`;
  const access = `Sign in with your client portal account (${recipient.email}) and your password.`;
  const text = plainText([greeting(recipient), '', intro, access, '', `Client portal: ${portalUrl}`, ''], sender);
  const html = emailLayout(
    `<p>${escapeHtml(greeting(recipient))}</p>
<p>${escapeHtml(intro)}<br>${escapeHtml(access)}</p>
${emailButton(portalUrl, 'Open the client portal')}`,
    sender,
  );
  return {
    to: recipient.email,
    subject: `Your ${PRODUCT_NAME} client portal`,
    text,
    html,
    entity: input.entity,
    entityId: input.entityId,
  };
}
