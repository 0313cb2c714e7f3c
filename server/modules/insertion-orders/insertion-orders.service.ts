import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { computeContractTotals } from '@shared/contract-totals';
import { emptyCompanyProfile } from '@shared/contracts/company-vocabulary';
import { canReadContract } from '@shared/contracts/contract-access';
import { contractNextStep, staffNextStepDetail, staffNextStepTitle } from '@shared/contracts/contract-next-step';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import type {
  ContractInsertionOrders,
  ContractIoSummary,
  InsertionOrderVersion,
  IoAcceptInput,
  IoDeclineInput,
  IoEventType,
  IoFigures,
  IoGoneResponse,
  IoStatus,
  IoVerifyResult,
  PublicInsertionOrder,
} from '@shared/contracts/insertion-orders';
import { centsToAmount } from '@shared/money';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { canonicalJson } from '../../lib/canonical-json';
import { ioLink, payLink } from '../../lib/capability-links';
import { letterheadLogo, readCompanyLogo, readCompanyProfile } from '../../lib/company-profile';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { notify } from '../../lib/notify';
import { type Letterhead, pdfDay } from '../../lib/pdf';
import type { Storage } from '../../lib/storage';
import { contractScheduleOf, previewContracts } from '../billing/billing.service';
import type { SessionUser } from '../sessions/sessions';
import { getSettings } from '../settings/settings.service';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import { ioFilename, type SignedRecordFacts, signedIoFilename, signedRecordEmail } from './insertion-orders.emails';
import { type IoSnapshot, renderIoPdf, renderSignedIoPdf } from './insertion-orders.pdf';
import {
  acceptIoRow,
  declineIoRow,
  type InsertionOrderRow,
  type IoContractRows,
  insertInsertionOrder,
  insertIoEvent,
  lockContractForVersion,
  markViewed,
  selectContractAccess,
  selectContractForIo,
  selectIoByToken,
  selectIoEvents,
  selectIoLines,
  selectIosOfContract,
  selectIoVersion,
  selectNewestIo,
  selectNewestIos,
  selectPaymentGate,
  selectVersionByHash,
  supersedeIoRows,
} from './insertion-orders.repo';

/** What the IO services need: the database, the outbox, storage for the PDFs (and the logo), the public origin. */
export type IoDeps = { db: Db; mailer: Mailer; storage: Storage; baseUrl: string };

/** Who opens a public link: recorded on the version's events (never the token). */
export type IoRequestMeta = { ip: string | null; userAgent: string | null };

export const IO_MESSAGES_SERVER = {
  notFound: 'This insertion order link is not valid.',
  payGate: 'Accept the insertion order before paying: review and sign it from the link in your e-mail.',
  alreadyAccepted: 'This insertion order is already accepted.',
  declined: 'This insertion order was declined, so it can no longer be accepted.',
  superseded: 'This version of the insertion order was replaced by a newer one.',
  notOpen: 'This insertion order can no longer be answered: the contract is not awaiting signature.',
  notSigned: 'This insertion order is not signed yet.',
  notPdf: 'Choose a PDF file to check.',
} as const;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** The content fingerprint printed in the IO's footer: SHA-256 of the snapshot's canonical JSON. */
export const contentFingerprint = (snapshot: IoSnapshot) => sha256(canonicalJson(snapshot));

/**
 * The seller a version prints: the company profile and logo its snapshot recorded when it was sent (a version
 * sent before company profiles existed: its business name alone).
 */
async function ioLetterhead(storage: Storage, snapshot: IoSnapshot): Promise<Letterhead> {
  return {
    company: snapshot.company ?? emptyCompanyProfile(snapshot.businessName),
    logo: await letterheadLogo(storage, snapshot.logo ?? null),
  };
}

async function storeBytes(storage: Storage, bytes: Buffer): Promise<string> {
  return storage.put(Readable.from([bytes]));
}

async function readBytes(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------------------
// Sending: version N, frozen
// ---------------------------------------------------------------------------------------------------------

/** The figures a version freezes, from the billing engine (previews, the schedule) and Contract Settings. */
async function buildSnapshot(tx: Db, contractId: string, version: number, sentAt: Date) {
  const rows = await selectContractForIo(tx, contractId);
  if (!rows) throw notFound('Contract');
  const { contract, billTo, advertiser, rep } = rows;
  // Billed to the advertiser's agency (product.md section 20): the IO is addressed to the agency, which signs it,
  // and names both.
  const billedToAgency = billTo.id !== advertiser.id;
  const lines = await selectIoLines(tx, contractId);
  const previews = await previewContracts(tx, [contract]);
  const schedule = (await contractScheduleOf(tx, contractId))!;
  const settings = await getSettings(tx, 'contracts');
  // The seller as of today: the version prints this profile and logo whenever it is rendered again.
  const company = await readCompanyProfile(tx);
  const logo = await readCompanyLogo(tx);
  const preview = previews.get(contractId)!;
  const totals = computeContractTotals({
    lineItems: lines.map(({ line }) => line),
    packagePriceCents: contract.packagePriceCents,
    setupFeeCents: contract.setupFeeCents,
  });
  const figures: IoFigures = {
    title: contract.title,
    customerName: billTo.name,
    advertiserName: billedToAgency ? advertiser.name : null,
    customerEmail: billTo.billingEmail,
    salesRepName: rep ? `${rep.firstName} ${rep.lastName}` : null,
    startDate: contract.startDate,
    termMonths: contract.termMonths,
    autoStopDate: contract.autoStopDate,
    paymentMode: contract.paymentMode === 'pay_link' ? 'pay_link' : 'portal',
    lines: lines.map(({ line, productName, adType }, i) => ({
      description: productName,
      adType,
      priceMetric: line.priceMetric,
      quantity: line.quantity,
      unitPrice: centsToAmount(line.unitPriceCents),
      seasonalPrice: line.seasonalPriceCents === null ? null : centsToAmount(line.seasonalPriceCents),
      discount: centsToAmount(line.discountCents),
      lineTotal: centsToAmount(line.lineTotalCents),
      seasonalLineTotal: centsToAmount(totals.seasonalLineTotals[i]),
      flightStart: line.flightStart,
      flightEnd: line.flightEnd,
    })),
    packageName: rows.packageName,
    packagePrice: centsToAmount(contract.packagePriceCents),
    setupFee: centsToAmount(contract.setupFeeCents),
    monthlyAmount: centsToAmount(preview.monthlyCents),
    seasonalMonthlyAmount: centsToAmount(preview.seasonalMonthlyCents),
    firstInvoiceAmount: centsToAmount(preview.firstInvoice.totalCents),
    taxLabel: schedule.taxLabel,
    taxRate: schedule.taxRate,
    taxIncluded: schedule.taxIncluded,
    oneTimeCharges: preview.oneTimeCharges.map((charge) => ({
      description: charge.description,
      amount: centsToAmount(charge.amountCents),
      billedOn: charge.billedOn,
    })),
    schedule: schedule.items.map((item) => ({
      periodStart: item.periodStart,
      periodEnd: item.periodEnd,
      dueDate: item.dueDate,
      total: item.total,
    })),
    terms: settings.ioTerms,
  };
  const snapshot: IoSnapshot = {
    contractId,
    contractNumber: shortContractId(contractId),
    version,
    businessName: company.legalName,
    company,
    logo: logo && { storageKey: logo.storageKey, contentType: logo.contentType, sha256: logo.sha256 },
    sentAt: sentAt.toISOString(),
    customer: {
      name: billTo.name,
      email: billTo.billingEmail,
      company: billTo.company,
      address: billTo.address,
      city: billTo.city,
      state: billTo.state,
      zipCode: billTo.zipCode,
      country: billTo.country,
    },
    ...(billedToAgency && { advertiser: { name: advertiser.name } }),
    figures,
  };
  return { snapshot, billTo, rep };
}

export type IssuedInsertionOrder = { version: number; url: string; status: IoStatus };

/**
 * Freezes the contract as its next IO version, in the caller's transaction (the send's): the version number
 * under the contract's row lock, the snapshot, its PDF rendered once and stored, its SHA-256s, the `sent`
 * event and the audit event (no token in either). The caller e-mails the answered link.
 */
export async function issueInsertionOrder(
  tx: Db,
  deps: IoDeps,
  input: { contractId: string; actorId: string | null },
): Promise<IssuedInsertionOrder> {
  const version = await lockContractForVersion(tx, input.contractId);
  if (version === null) throw notFound('Contract');
  const sentAt = new Date();
  const { snapshot, billTo } = await buildSnapshot(tx, input.contractId, version, sentAt);
  const contentSha256 = contentFingerprint(snapshot);
  const pdf = await renderIoPdf(snapshot, contentSha256, await ioLetterhead(deps.storage, snapshot));
  const pdfKey = await storeBytes(deps.storage, pdf);
  const token = randomBytes(24).toString('base64url'); // 192 bits
  const row = await insertInsertionOrder(tx, {
    contractId: input.contractId,
    version,
    status: 'sent',
    token,
    snapshot,
    contentSha256,
    pdfKey,
    pdfSha256: sha256(pdf),
    pdfBytes: pdf.length,
    customerEmail: billTo.billingEmail,
    sentBy: input.actorId,
    sentAt,
  });
  await insertIoEvent(tx, {
    insertionOrderId: row.id,
    contractId: input.contractId,
    type: 'sent',
    at: sentAt,
    actorId: input.actorId,
    detail: `To ${billTo.billingEmail}`,
  });
  await recordAudit(tx, {
    actorId: input.actorId,
    action: 'insertion_order.sent',
    entity: 'contract',
    entityId: input.contractId,
    after: { version, pdfSha256: row.pdfSha256, contentSha256, to: billTo.billingEmail },
  });
  return { version, url: ioLink(deps.baseUrl, token), status: 'sent' };
}

/**
 * Whether "Send to Customer" may make a new version of a contract that is already sent: when its newest
 * version is superseded or declined, or there is none. Otherwise the 409 message naming the version out.
 */
export async function newVersionRefusal(db: Db, contractId: string): Promise<string | null> {
  const newest = await selectNewestIo(db, contractId);
  if (!newest || newest.status === 'superseded' || newest.status === 'declined') return null;
  if (newest.status === 'accepted') return `Version ${newest.version} of the insertion order is already signed`;
  return `Version ${newest.version} of the insertion order is already with the customer`;
}

/** The newest version's link while it is with the customer (the resend e-mail carries it); null otherwise. */
export async function openInsertionOrderLink(db: Db, baseUrl: string, contractId: string) {
  const newest = await selectNewestIo(db, contractId);
  return newest?.status === 'sent' ? { version: newest.version, url: ioLink(baseUrl, newest.token) } : null;
}

/**
 * An edit or amendment of a sent contract: its open or accepted version no longer matches it, so it is
 * superseded (one conditional UPDATE), in the edit's transaction; the next send makes version N+1.
 */
export async function supersedeInsertionOrder(
  tx: Db,
  input: { contractId: string; actorId: string | null },
): Promise<void> {
  const rows = await supersedeIoRows(tx, input.contractId);
  for (const row of rows) {
    await insertIoEvent(tx, {
      insertionOrderId: row.id,
      contractId: row.contractId,
      type: 'superseded',
      actorId: input.actorId,
      detail: 'The contract was changed',
    });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: 'insertion_order.superseded',
      entity: 'contract',
      entityId: row.contractId,
      after: { version: row.version },
    });
  }
}

// ---------------------------------------------------------------------------------------------------------
// The payment gate and the short forms other answers carry
// ---------------------------------------------------------------------------------------------------------

/**
 * Payment of a sent contract needs its newest version accepted (409 otherwise). A sent contract with no
 * version at all (sent before insertion orders existed) pays as before. Call it under the contract's lock.
 */
export async function assertInsertionOrderAccepted(tx: Db, contractId: string): Promise<void> {
  const gate = await selectPaymentGate(tx, contractId);
  if (gate?.contractStatus === 'sent' && gate.version !== null && gate.status !== 'accepted') {
    throw conflict(IO_MESSAGES_SERVER.payGate);
  }
}

/** The newest version of each contract as staff see it (no token). */
export async function insertionOrderSummaries(
  db: Db,
  contractIds: readonly string[],
): Promise<Map<string, ContractIoSummary>> {
  const rows = await selectNewestIos(db, contractIds);
  return new Map(
    rows.map((row) => [
      row.contractId,
      {
        version: row.version,
        status: row.status as IoStatus,
        sentAt: row.sentAt.toISOString(),
        signerName: row.signerName,
        acceptedAt: row.acceptedAt?.toISOString() ?? null,
      },
    ]),
  );
}

/** The newest version of each contract as its customer sees it (the pay page, the portal): with its token. */
export async function customerInsertionOrders(
  db: Db,
  contractIds: readonly string[],
): Promise<Map<string, { token: string; version: number; status: IoStatus }>> {
  const rows = await selectNewestIos(db, contractIds);
  return new Map(
    rows.map((row) => [row.contractId, { token: row.token, version: row.version, status: row.status as IoStatus }]),
  );
}

// ---------------------------------------------------------------------------------------------------------
// The public side: the link's holder
// ---------------------------------------------------------------------------------------------------------

export type IoGone = { gone: IoGoneResponse };

async function findByToken(db: Db, token: string): Promise<InsertionOrderRow> {
  const row = /^[A-Za-z0-9_-]{20,64}$/.test(token) ? await selectIoByToken(db, token) : null;
  if (!row) throw notFound(IO_MESSAGES_SERVER.notFound);
  return row;
}

/** An older version's link: 410 naming the newest version and its address. */
async function goneIfOlder(deps: IoDeps, row: InsertionOrderRow): Promise<IoGone | null> {
  const newest = await selectNewestIo(deps.db, row.contractId);
  if (!newest || newest.version === row.version) return null;
  return {
    gone: {
      message: `This is version ${row.version} of the insertion order; version ${newest.version} replaces it.`,
      code: 'GONE',
      latestVersion: newest.version,
      latestUrl: ioLink(deps.baseUrl, newest.token),
    },
  };
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

export async function getPublicInsertionOrder(
  deps: IoDeps,
  token: string,
  meta: IoRequestMeta,
): Promise<PublicInsertionOrder | IoGone> {
  const row = await findByToken(deps.db, token);
  const gone = await goneIfOlder(deps, row);
  if (gone) return gone;
  // The first view of a version is recorded once: the conditional UPDATE decides which request it is.
  await deps.db.transaction(async (tx) => {
    if (!(await markViewed(tx, row.id))) return;
    await insertIoEvent(tx, {
      insertionOrderId: row.id,
      contractId: row.contractId,
      type: 'viewed',
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    await recordAudit(tx, {
      actorId: null,
      action: 'insertion_order.viewed',
      entity: 'contract',
      entityId: row.contractId,
      after: { version: row.version },
    });
  });
  return toPublic(deps, row);
}

async function toPublic(deps: IoDeps, row: InsertionOrderRow): Promise<PublicInsertionOrder> {
  const snapshot = row.snapshot as IoSnapshot;
  // The files of the link's own version, under the public API (the page itself is `/io/{token}`).
  const base = `${deps.baseUrl}/api/io/${row.token}`;
  const payToken =
    snapshot.figures.paymentMode === 'pay_link' && row.status === 'accepted'
      ? await payTokenOf(deps.db, row.contractId)
      : null;
  return {
    contractId: row.contractId,
    version: row.version,
    status: row.status as IoStatus,
    latestVersion: row.version,
    sentAt: row.sentAt.toISOString(),
    sha256: row.pdfSha256,
    contentSha256: row.contentSha256,
    // An order sent before agencies has no advertiserName in its frozen figures.
    figures: { ...snapshot.figures, advertiserName: snapshot.figures.advertiserName ?? null },
    pdfUrl: `${base}/pdf`,
    signerName: row.signerName,
    acceptedAt: iso(row.acceptedAt),
    signedPdfUrl: row.signedPdfKey ? `${base}/signed-pdf` : null,
    declinedAt: iso(row.declinedAt),
    declineReason: row.declineReason,
    payUrl: payToken ? payLink(deps.baseUrl, payToken) : null,
  };
}

async function payTokenOf(db: Db, contractId: string): Promise<string | null> {
  const rows = await selectContractForIo(db, contractId);
  return rows?.contract.payLinkToken ?? null;
}

export type IoFile = { bytes: Buffer; filename: string };

/** The version's PDF as sent (an older version's link: 410). */
export async function publicInsertionOrderPdf(deps: IoDeps, token: string): Promise<IoFile | IoGone> {
  const row = await findByToken(deps.db, token);
  const gone = await goneIfOlder(deps, row);
  if (gone) return gone;
  return sentFile(deps.storage, row);
}

/** The signed PDF, once accepted (404 before). An accepted version keeps it even once superseded. */
export async function publicSignedPdf(deps: IoDeps, token: string): Promise<IoFile> {
  const row = await findByToken(deps.db, token);
  return signedFile(deps.storage, row);
}

async function sentFile(storage: Storage, row: InsertionOrderRow): Promise<IoFile> {
  const number = shortContractId(row.contractId);
  return { bytes: await readBytes(storage, row.pdfKey), filename: ioFilename(number, row.version) };
}

async function signedFile(storage: Storage, row: InsertionOrderRow): Promise<IoFile> {
  if (!row.signedPdfKey) throw notFound(IO_MESSAGES_SERVER.notSigned);
  const number = shortContractId(row.contractId);
  return { bytes: await readBytes(storage, row.signedPdfKey), filename: signedIoFilename(number, row.version) };
}

function refusalFor(row: InsertionOrderRow): string {
  if (row.status === 'accepted') return IO_MESSAGES_SERVER.alreadyAccepted;
  if (row.status === 'declined') return IO_MESSAGES_SERVER.declined;
  if (row.status === 'superseded') return IO_MESSAGES_SERVER.superseded;
  return IO_MESSAGES_SERVER.notOpen;
}

/**
 * Accepting: the signed file is rendered and stored first (the IO pages again from the snapshot, and the
 * signing certificate with every event and this acceptance), then ONE conditional UPDATE on the status
 * decides; a request that loses (accepted twice, superseded, declined, contract no longer sent) answers 409
 * and its file is removed. In the same transaction: the event, the audit, the webhook `contract.accepted`,
 * the rep's notice and the signed record e-mailed to the customer and the rep.
 */
export async function acceptInsertionOrder(
  deps: IoDeps,
  token: string,
  body: IoAcceptInput,
  meta: IoRequestMeta,
): Promise<PublicInsertionOrder> {
  const row = await findByToken(deps.db, token);
  if (row.status !== 'sent') throw conflict(refusalFor(row));
  const signerName = body.signerName.trim();
  const acceptedAt = new Date();
  const snapshot = row.snapshot as IoSnapshot;
  const events = await selectIoEvents(deps.db, row.id);
  const certificateEvents = [
    ...events.map((event) => ({
      type: event.type as IoEventType,
      at: event.at.toISOString(),
      ip: event.ip,
      userAgent: event.userAgent,
      detail: event.detail,
    })),
    {
      type: 'accepted' as const,
      at: acceptedAt.toISOString(),
      ip: meta.ip,
      userAgent: meta.userAgent,
      detail: `Signed by ${signerName}`,
    },
  ];
  const signed = await renderSignedIoPdf(
    snapshot,
    row.contentSha256,
    {
      signerName,
      signerEmail: row.customerEmail,
      acceptedAt: acceptedAt.toISOString(),
      originalSha256: row.pdfSha256,
      events: certificateEvents,
    },
    await ioLetterhead(deps.storage, snapshot),
  );
  const signedKey = await storeBytes(deps.storage, signed);
  const signedSha256 = sha256(signed);
  let accepted: InsertionOrderRow | null = null;
  try {
    accepted = await deps.db.transaction(async (tx) => {
      const updated = await acceptIoRow(tx, row.id, {
        acceptedAt,
        signerName,
        signerEmail: row.customerEmail,
        signerIp: meta.ip,
        signerUserAgent: meta.userAgent,
        signedPdfKey: signedKey,
        signedPdfSha256: signedSha256,
        signedPdfBytes: signed.length,
      });
      if (!updated) return null;
      await insertIoEvent(tx, {
        insertionOrderId: row.id,
        contractId: row.contractId,
        type: 'accepted',
        at: acceptedAt,
        ip: meta.ip,
        userAgent: meta.userAgent,
        detail: `Signed by ${signerName}`,
      });
      await recordAudit(tx, {
        actorId: null,
        action: 'insertion_order.accepted',
        entity: 'contract',
        entityId: row.contractId,
        after: {
          version: row.version,
          signerName,
          signerEmail: row.customerEmail,
          ip: meta.ip,
          pdfSha256: row.pdfSha256,
          signedPdfSha256: signedSha256,
        },
      });
      await emitWebhookEvent(tx, 'contract.accepted', { ids: [row.contractId] }, { once: true });
      await tellRep(tx, deps, updated, 'accepted', signedKey);
      return updated;
    });
  } catch (error) {
    await deps.storage.delete(signedKey).catch(() => {});
    throw error;
  }
  if (!accepted) {
    await deps.storage.delete(signedKey).catch(() => {});
    const now = await selectIoByToken(deps.db, token);
    throw conflict(refusalFor(now ?? row));
  }
  deps.mailer.kick(deps.db);
  return toPublic(deps, accepted);
}

/** Declining, with the customer's reason: one conditional UPDATE; the rep is told. */
export async function declineInsertionOrder(
  deps: IoDeps,
  token: string,
  body: IoDeclineInput,
  meta: IoRequestMeta,
): Promise<PublicInsertionOrder> {
  const row = await findByToken(deps.db, token);
  if (row.status !== 'sent') throw conflict(refusalFor(row));
  const reason = body.reason.trim();
  const declined = await deps.db.transaction(async (tx) => {
    const updated = await declineIoRow(tx, row.id, reason);
    if (!updated) return null;
    await insertIoEvent(tx, {
      insertionOrderId: row.id,
      contractId: row.contractId,
      type: 'declined',
      ip: meta.ip,
      userAgent: meta.userAgent,
      detail: reason,
    });
    await recordAudit(tx, {
      actorId: null,
      action: 'insertion_order.declined',
      entity: 'contract',
      entityId: row.contractId,
      after: { version: row.version, reason, ip: meta.ip },
    });
    await tellRep(tx, deps, updated, 'declined', null);
    return updated;
  });
  if (!declined) {
    const now = await selectIoByToken(deps.db, token);
    throw conflict(refusalFor(now ?? row));
  }
  deps.mailer.kick(deps.db);
  return toPublic(deps, declined);
}

/**
 * The rep hears of an answer in-app (and by e-mail per the contract-updates preference for a decline); an
 * acceptance e-mails the signed record to the customer and the rep, the file attached.
 */
async function tellRep(
  tx: Db,
  deps: IoDeps,
  row: InsertionOrderRow,
  outcome: 'accepted' | 'declined',
  signedKey: string | null,
): Promise<void> {
  const rows = await selectContractForIo(tx, row.contractId);
  if (!rows) return;
  const contractName = rows.contract.title ?? `#${shortContractId(row.contractId)}`;
  const link = `/contracts/${row.contractId}`;
  if (outcome === 'accepted') {
    const next = await nextStepText(tx, rows.contract);
    if (rows.rep) {
      await notify(tx, {
        to: { userIds: [rows.rep.id] },
        type: 'io_accepted',
        title: `Insertion order signed: ${contractName}`,
        body: `${row.signerName} accepted version ${row.version} of the insertion order for ${partiesName(rows)}.${next ? ` ${next}` : ''}`,
        link,
        entity: 'contract',
        entityId: row.contractId,
        // The signed record e-mail below is the rep's e-mail of it.
        email: null,
      });
    }
    const facts: SignedRecordFacts = {
      contractId: row.contractId,
      contractName,
      version: row.version,
      signerName: row.signerName!,
      acceptedAt: row.acceptedAt!.toISOString(),
      pdfSha256: row.pdfSha256,
      signedSha256: row.signedPdfSha256!,
    };
    const attachment = {
      filename: signedIoFilename(shortContractId(row.contractId), row.version),
      contentType: 'application/pdf',
      storageKey: signedKey!,
    };
    // The customer's copy comes from the company (today's profile: the e-mail is written today).
    const company = await readCompanyProfile(tx);
    // The signer's copy: the bill-to's billing contact, whom the link reached.
    const customer = {
      name: rows.billTo.name,
      email: row.customerEmail,
      contactPerson: rows.billTo.billingContactName,
    };
    await deps.mailer.enqueue(
      tx,
      signedRecordEmail({ facts, recipient: customer, audience: 'customer', sender: company, attachment }),
    );
    if (rows.rep) {
      const recipient = { name: `${rows.rep.firstName} ${rows.rep.lastName}`, email: rows.rep.email };
      await deps.mailer.enqueue(
        tx,
        signedRecordEmail({ facts, recipient, audience: 'rep', sender: null, attachment, nextStep: next }),
      );
    }
    return;
  }
  if (!rows.rep) return;
  const body = `${rows.billTo.name} declined version ${row.version} of the insertion order: ${row.declineReason}`;
  await notify(tx, {
    to: { userIds: [rows.rep.id] },
    type: 'io_declined',
    title: `Insertion order declined: ${contractName}`,
    body,
    link,
    entity: 'contract',
    entityId: row.contractId,
    email: { subject: `Insertion order declined: ${contractName}`, text: `${body}\n\n${deps.baseUrl}${link}\n` },
  });
}

/** The customer as the rep's notices name it: the advertiser, and the agency when billed to it. */
function partiesName(rows: IoContractRows): string {
  return rows.billTo.id === rows.advertiser.id
    ? rows.advertiser.name
    : `${rows.advertiser.name} (billed to ${rows.billTo.name})`;
}

/**
 * What the signed contract waits for, in the words of the staff contract page ("Signed, ready to activate: ..."),
 * with the first invoice's date from the billing engine; null when it is not waiting (no longer sent).
 */
async function nextStepText(tx: Db, contract: IoContractRows['contract']): Promise<string | null> {
  const preview = (await previewContracts(tx, [contract])).get(contract.id)!;
  const step = contractNextStep({
    status: contract.status,
    paymentMode: contract.paymentMode,
    insertionOrderStatus: 'accepted',
    firstInvoiceDate: (preview.issuedFirstInvoice ?? preview.firstInvoice).periodStart,
    today: businessToday(),
  });
  return step ? `${staffNextStepTitle(step)}: ${staffNextStepDetail(step, pdfDay)}` : null;
}

// ---------------------------------------------------------------------------------------------------------
// Staff: the versions of a contract, their files, verifying a file
// ---------------------------------------------------------------------------------------------------------

async function readableContract(db: Db, actor: SessionUser, contractId: string) {
  const contract = await selectContractAccess(db, contractId);
  if (!contract || !canReadContract(actor, contract)) throw notFound('Contract');
  return contract;
}

export async function contractInsertionOrders(
  db: Db,
  actor: SessionUser,
  contractId: string,
): Promise<ContractInsertionOrders> {
  const contract = await readableContract(db, actor, contractId);
  const { versions, events } = await selectIosOfContract(db, contractId);
  const base = `/api/contracts/${contractId}/io`;
  const newest = versions[0]?.io;
  return {
    contractId,
    payable: contract.status !== 'sent' || !newest || newest.status === 'accepted',
    versions: versions.map(
      ({ io, sentByFirstName, sentByLastName }): InsertionOrderVersion => ({
        id: io.id,
        version: io.version,
        status: io.status as IoStatus,
        sentAt: io.sentAt.toISOString(),
        sentByName: sentByFirstName === null ? null : `${sentByFirstName} ${sentByLastName}`,
        customerEmail: io.customerEmail,
        viewedAt: iso(io.viewedAt),
        sha256: io.pdfSha256,
        contentSha256: io.contentSha256,
        pdfUrl: `${base}/${io.version}/pdf`,
        acceptedAt: iso(io.acceptedAt),
        signerName: io.signerName,
        signerEmail: io.signerEmail,
        signerIp: io.signerIp,
        signerUserAgent: io.signerUserAgent,
        signedSha256: io.signedPdfSha256,
        signedPdfUrl: io.signedPdfKey ? `${base}/${io.version}/signed-pdf` : null,
        declinedAt: iso(io.declinedAt),
        declineReason: io.declineReason,
        supersededAt: iso(io.supersededAt),
        events: events
          .filter(({ event }) => event.insertionOrderId === io.id)
          .map(({ event, actorFirstName, actorLastName }) => ({
            type: event.type as IoEventType,
            at: event.at.toISOString(),
            ip: event.ip,
            userAgent: event.userAgent,
            actorName: actorFirstName === null ? null : `${actorFirstName} ${actorLastName}`,
            detail: event.detail,
          })),
      }),
    ),
  };
}

export async function staffInsertionOrderPdf(
  deps: Pick<IoDeps, 'db' | 'storage'>,
  actor: SessionUser,
  contractId: string,
  version: number,
  kind: 'sent' | 'signed',
): Promise<IoFile> {
  await readableContract(deps.db, actor, contractId);
  const row = await selectIoVersion(deps.db, contractId, version);
  if (!row) throw notFound('Insertion order');
  return kind === 'sent' ? sentFile(deps.storage, row) : signedFile(deps.storage, row);
}

/** Does this file's SHA-256 match a version of THIS contract, as sent or as signed? */
export async function verifyInsertionOrderPdf(
  db: Db,
  actor: SessionUser,
  contractId: string,
  bytes: Buffer,
): Promise<IoVerifyResult> {
  await readableContract(db, actor, contractId);
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') {
    throw badRequest(IO_MESSAGES_SERVER.notPdf, { file: [IO_MESSAGES_SERVER.notPdf] });
  }
  const hash = sha256(bytes);
  const match = await selectVersionByHash(db, contractId, hash);
  return { sha256: hash, match: match ? { version: match.version, kind: match.kind } : null };
}
