import { addDays } from '@shared/billing';
import { type AgencyBillingMode, agencyOfRecordSchema } from '@shared/contracts/agencies';
import { contactSchema } from '@shared/contracts/contacts';
import { contractBodySchema } from '@shared/contracts/contract-api';
import { addCalendarMonths } from '@shared/contracts/contract-lifecycle';
import type { PaymentMode } from '@shared/contracts/contract-vocabulary';
import { createCustomerSchema } from '@shared/contracts/customers';
import { amountDueCents } from '@shared/invoice-amounts';
import { centsToPlain } from '@shared/money';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { insertionOrders, invoices, products, users } from '../db/schema';
import { businessToday } from '../lib/business-day';
import { createMailer } from '../lib/mailer';
import type { Storage } from '../lib/storage';
import { issueDueInvoices } from '../modules/billing/billing-run';
import { createContact } from '../modules/contacts/contacts.service';
import { changeContractStatus } from '../modules/contract-status/contract-status.service';
import { createContract } from '../modules/contracts/contracts.service';
import { setAgencyOfRecord } from '../modules/customers/agencies.service';
import { createCustomer } from '../modules/customers/customers.service';
import { acceptInsertionOrder } from '../modules/insertion-orders/insertion-orders.service';
import { type ApplyPaymentInput, applyPayments } from '../modules/payments/payments.service';
import { seedAgencyUser } from './seed-users';

/** Where the agencies' signers open their insertion orders from (kept on the signed record). */
const BROWSER = {
  ip: '203.0.113.47',
  userAgent:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
};

type Address = { phone: string; address: string; city: string; state: string; zipCode: string };

type DemoAgency = {
  name: string;
  email: string;
  company: string;
  contactPerson: string;
  website: string;
  commissionPercent: number;
  billingMode: AgencyBillingMode;
  /** Its billing contact: invoices, receipts, reminders, pay links and IOs go there. */
  billing: { name: string; role: string; email: string; phone: string };
  /** How its contracts are sent: Cardinal Media's through the portal (agency@demo.test), Harborline's by pay link. */
  paymentMode: PaymentMode;
} & Address;

type DemoLine = [product: string, quantity: number, discount?: number];

type DemoContract = {
  title: string;
  /**
   * When it started: its newest period began `daysAgo` days before today, its first `months` months before that one
   * (a month more when that month lacks the day: startFor), so it has `months` + 1 invoices.
   */
  months: number;
  daysAgo: number;
  term: number | null;
  lines: DemoLine[];
  setupFee?: number;
  /** Billed to the advertiser itself, not its agency of record (the form's "Bill to"), by pay link. */
  billedToAdvertiser?: boolean;
  /** How many of its newest invoices are left unpaid. */
  open?: number;
};

type DemoAdvertiser = {
  name: string;
  email: string;
  contactPerson: string;
  industry: string;
  contracts: DemoContract[];
} & Address;

/**
 * The two demo agencies and their advertisers. The advertisers' names sort after the demo's first customers (the
 * customer list's first rows stay), and their newest periods began a week or more ago, so that the renewal seed's
 * newest invoices (about six days old) stay above them in the invoice list. Left open: the newest invoices of
 * Oakridge Dental Care and Willow Creek Bistro (due today) and of Pinewood Hardware's spots (overdue).
 */
const AGENCIES: (DemoAgency & { advertisers: DemoAdvertiser[] })[] = [
  {
    name: 'Cardinal Media',
    email: 'hello@cardinalmedia.example',
    company: 'Cardinal Media Buying LLC',
    contactPerson: 'Renee Cardenas',
    website: 'https://cardinalmedia.example',
    phone: '(314) 555-0107',
    address: '700 Washington Ave, Suite 400',
    city: 'St. Louis',
    state: 'MO',
    zipCode: '63101',
    commissionPercent: 15,
    billingMode: 'net',
    billing: {
      name: 'Paula Whitmore',
      role: 'Accounts payable',
      email: 'ap@cardinalmedia.example',
      phone: '(314) 555-0121',
    },
    paymentMode: 'portal',
    advertisers: [
      {
        name: 'Oakridge Dental Care',
        email: 'office@oakridgedental.example',
        contactPerson: 'Dr. Alan Oakes',
        industry: 'Healthcare',
        phone: '(314) 555-0133',
        address: '2250 S Brentwood Blvd',
        city: 'Brentwood',
        state: 'MO',
        zipCode: '63144',
        contracts: [
          {
            title: 'Oakridge Dental: new patient year',
            months: 10,
            daysAgo: 7,
            term: 12,
            lines: [
              ['pre_roll', 1],
              ['banner', 1],
            ],
            setupFee: 200,
            open: 1,
          },
        ],
      },
      {
        name: 'Pinewood Hardware',
        email: 'store@pinewoodhardware.example',
        contactPerson: 'Walt Jensen',
        industry: 'Home Improvement',
        phone: '(636) 555-0148',
        address: '118 N Main St',
        city: 'St. Charles',
        state: 'MO',
        zipCode: '63301',
        contracts: [
          {
            title: 'Pinewood Hardware: weekend project spots',
            months: 9,
            daysAgo: 12,
            term: 12,
            lines: [['mid_roll', 1, 100]],
            open: 1,
          },
          {
            // The owner buys the QR codes himself: billed to Pinewood Hardware, not through Cardinal Media.
            title: 'Pinewood Hardware: in-store QR coupons',
            months: 5,
            daysAgo: 25,
            term: null,
            lines: [['timed_qr', 2]],
            billedToAdvertiser: true,
          },
        ],
      },
      {
        name: 'Silver Lake Yoga',
        email: 'namaste@silverlakeyoga.example',
        contactPerson: 'Kira Olsen',
        industry: 'Health & Fitness',
        phone: '(314) 555-0169',
        address: '4320 Manchester Ave',
        city: 'St. Louis',
        state: 'MO',
        zipCode: '63110',
        contracts: [
          {
            title: 'Silver Lake Yoga: new year, new you',
            months: 7,
            daysAgo: 20,
            term: null,
            lines: [['ad_on_pause', 1]],
          },
        ],
      },
    ],
  },
  {
    name: 'Harborline Partners',
    email: 'media@harborline.example',
    company: 'Harborline Partners Inc.',
    contactPerson: 'Marcus Hale',
    website: 'https://harborline.example',
    phone: '(207) 555-0172',
    address: '60 Commercial St',
    city: 'Portland',
    state: 'ME',
    zipCode: '04101',
    commissionPercent: 12.5,
    billingMode: 'gross',
    billing: {
      name: 'Ingrid Sousa',
      role: 'Billing manager',
      email: 'billing@harborline.example',
      phone: '(207) 555-0186',
    },
    paymentMode: 'pay_link',
    advertisers: [
      {
        name: 'Tidewater Marina',
        email: 'dock@tidewatermarina.example',
        contactPerson: 'Cole Brennan',
        industry: 'Marine & Boating',
        phone: '(207) 555-0114',
        address: '15 Wharf Rd',
        city: 'South Portland',
        state: 'ME',
        zipCode: '04106',
        contracts: [
          {
            title: 'Tidewater Marina: slip season',
            months: 10,
            daysAgo: 16,
            term: 12,
            lines: [['pre_roll', 1, 150]],
            setupFee: 150,
          },
        ],
      },
      {
        name: 'Willow Creek Bistro',
        email: 'reservations@willowcreekbistro.example',
        contactPerson: 'Hannah Reid',
        industry: 'Restaurant',
        phone: '(207) 555-0195',
        address: '210 Fore St',
        city: 'Portland',
        state: 'ME',
        zipCode: '04101',
        contracts: [
          {
            title: 'Willow Creek Bistro: supper club',
            months: 9,
            daysAgo: 7,
            term: 12,
            lines: [
              ['banner', 1],
              ['post_roll', 1],
            ],
            open: 1,
          },
        ],
      },
    ],
  },
];

const PRODUCT_NAMES: Record<string, string> = {
  pre_roll: 'Holiday Pre-roll Video (15s)',
  mid_roll: 'Mid-roll Video Spot (30s)',
  post_roll: 'Post-roll Video Tag',
  banner: 'Homepage Banner (728x90)',
  ad_on_pause: 'Ad on Pause Screen',
  timed_qr: 'Timed QR Code Placement',
};

/** The rep of the agency accounts: the sales manager, so that the two reps' books stay what the other seeds made. */
const REP_EMAIL = 'manager@demo.test';

/**
 * Agencies (product.md section 20), made through the product's own paths: two agencies, Cardinal Media (net, 15%)
 * and Harborline Partners (gross, 12.5%), each with a billing contact and advertisers it has represented since the
 * 1st of the month a year ago (open-ended); their contracts created by the contract service (billed to the agency
 * by default, one billed to its advertiser), sent (each send issues its insertion order), signed by the bill-to and
 * activated by the sales manager; a year of invoices issued by the billing run on each period's start (replayed as
 * seed-billing.ts replays it), paid by check or wire through the payments core a few days later, the newest
 * few left open (one past its due date). Cardinal Media has a portal account, agency@demo.test. Runs last: the other
 * seeds choose their customers by name. The contracts are written, sent, signed and activated today (those rows are
 * the contract and insertion-order modules' own, with today's times); their start dates and invoices carry the
 * year. Dates count from the business day the demo is seeded on.
 */
export async function seedAgencies(
  db: Db,
  options: { storage: Storage; today?: string; baseUrl?: string },
): Promise<void> {
  const today = options.today ?? businessToday();
  const baseUrl = options.baseUrl ?? 'http://localhost:3000';
  const deps = {
    db,
    mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
    baseUrl,
    storage: options.storage,
  };
  const [rep] = await db.select().from(users).where(eq(users.email, REP_EMAIL));
  const productRows = await db
    .select()
    .from(products)
    .where(inArray(products.name, Object.values(PRODUCT_NAMES)));
  const productByKey = new Map(
    Object.entries(PRODUCT_NAMES).flatMap(([key, name]) => {
      const product = productRows.find((p) => p.name === name);
      return product ? [[key, product] as const] : [];
    }),
  );
  if (!rep || productByKey.size < Object.keys(PRODUCT_NAMES).length) return;

  const thisMonth = `${today.slice(0, 7)}-01`;
  // Represented from the 1st of the month a year ago, until further notice.
  const representedFrom = addCalendarMonths(thisMonth, -12);
  const made: { id: string; plan: DemoContract; startDate: string }[] = [];

  for (const agency of AGENCIES) {
    const agencyCustomer = await createCustomer(
      db,
      rep,
      createCustomerSchema.parse({
        name: agency.name,
        email: agency.email,
        company: agency.company,
        phone: agency.phone,
        address: agency.address,
        city: agency.city,
        state: agency.state,
        zipCode: agency.zipCode,
        country: 'USA',
        contactPerson: agency.contactPerson,
        website: agency.website,
        industry: 'Media Buying Agency',
        kind: 'agency',
        agencyCommissionPercent: agency.commissionPercent,
      }),
    );
    await createContact(
      db,
      rep,
      agencyCustomer.id,
      contactSchema.parse({ ...agency.billing, isBilling: true, isPrimary: false }),
    );
    // The agency's portal account, before its first contract is sent: the portal invitation finds it.
    if (agency.paymentMode === 'portal') await seedAgencyUser(db, { customerId: agencyCustomer.id });

    for (const advertiser of agency.advertisers) {
      const { contracts: plans, ...fields } = advertiser;
      const customer = await createCustomer(
        db,
        rep,
        createCustomerSchema.parse({ ...fields, company: fields.name, country: 'USA' }),
      );
      await setAgencyOfRecord(
        db,
        rep,
        customer.id,
        agencyOfRecordSchema.parse({
          agencyId: agencyCustomer.id,
          billingMode: agency.billingMode,
          from: representedFrom,
        }),
      );

      for (const plan of plans) {
        const startDate = startFor(addDays(today, -plan.daysAgo), plan.months);
        const body = contractBodySchema.parse({
          customerId: customer.id,
          title: plan.title,
          description: `${plan.title}: ${plan.lines.map(([key]) => productByKey.get(key)!.name.toLowerCase()).join(' and ')}`,
          startDate,
          termMonths: plan.term,
          setupFee: plan.setupFee ?? 0,
          paymentMode: plan.billedToAdvertiser ? 'pay_link' : agency.paymentMode,
          packageId: null,
          sendToCustomer: true,
          billToCustomerId: plan.billedToAdvertiser ? customer.id : null,
          lineItems: plan.lines.map(([key, quantity, discount]) => {
            const product = productByKey.get(key)!;
            return {
              productId: product.id,
              quantity,
              unitPrice: centsToPlain(product.defaultPriceCents),
              discount: discount ?? 0,
            };
          }),
        });
        const contract = await createContract(deps, rep, body);
        // The bill-to's signer signs the insertion order the send issued; then the manager starts the campaign.
        const [io] = await db
          .select({ token: insertionOrders.token })
          .from(insertionOrders)
          .where(eq(insertionOrders.contractId, contract.id));
        const signer = plan.billedToAdvertiser ? advertiser.contactPerson : agency.contactPerson;
        await acceptInsertionOrder(deps, io.token, { signerName: signer, agree: true }, BROWSER);
        await db.transaction((tx) =>
          changeContractStatus(tx, contract.id, { action: 'activate', actorId: rep.id, baseUrl }),
        );
        made.push({ id: contract.id, plan, startDate });
      }
    }
  }

  await replayBilling(db, made, { today, baseUrl });
}

/**
 * The start date whose `months`-th monthly period begins on `newest`. A start clamped to a shorter month (the 29th
 * to the 31st) would move every period to its day: then the start is a month earlier, until it is not clamped.
 */
function startFor(newest: string, months: number): string {
  let back = months;
  while (addCalendarMonths(addCalendarMonths(newest, -back), back) !== newest) back++;
  return addCalendarMonths(newest, -back);
}

/**
 * The billing run replayed for these contracts on each period's start, from the earliest to the last before today
 * (each run issues that day's invoice, dated that day); then the bill-to pays each, 2 to 9 days after its period
 * began (yesterday at the latest), by check or wire through the payments core (one batch: receipts, the reps'
 * commissions and the invoices' events as any payment makes them). Each contract's newest `open` invoices stay
 * unpaid.
 */
async function replayBilling(
  db: Db,
  made: { id: string; plan: DemoContract; startDate: string }[],
  options: { today: string; baseUrl: string },
): Promise<void> {
  const { today, baseUrl } = options;
  const periodsBilled = (startDate: string) => {
    let periods = 0;
    while (addCalendarMonths(startDate, periods) < today) periods++;
    return periods;
  };
  // Each period's start, with the contracts whose period begins that day.
  const steps = new Map<string, string[]>();
  for (const { id, startDate } of made) {
    for (let month = 0; month < periodsBilled(startDate); month++) {
      const day = addCalendarMonths(startDate, month);
      steps.set(day, [...(steps.get(day) ?? []), id]);
    }
  }
  // One transaction for the whole replay: the billing run's own statement for one contract, once per period.
  await db.transaction(async (tx) => {
    for (const day of [...steps.keys()].sort()) {
      for (const contractId of steps.get(day)!) await issueDueInvoices(tx, { contractId, asOf: day, baseUrl });
    }
  });

  const byId = new Map(made.map((m) => [m.id, m]));
  const issued = await db
    .select()
    .from(invoices)
    .where(and(inArray(invoices.contractId, [...byId.keys()]), eq(invoices.status, 'pending')))
    .orderBy(asc(invoices.periodStart), asc(invoices.number));
  let checkNumber = 5108;
  const payments: ApplyPaymentInput[] = [];
  for (const invoice of issued) {
    const { plan, startDate } = byId.get(invoice.contractId)!;
    if (invoice.periodIndex >= periodsBilled(startDate) - (plan.open ?? 0)) continue;
    // The same day and method on every start: from the contract's title and the period.
    let seed = 11;
    for (const ch of `${plan.title}:${invoice.periodIndex}`) seed = (seed * 31 + ch.charCodeAt(0)) % 1_000_003;
    // Before today: a bill-to that paid every invoice so far is paid up.
    const on = [addDays(invoice.periodStart, 2 + (seed % 8)), addDays(today, -1)].sort()[0];
    const method = seed % 3 === 0 ? 'check' : 'wire';
    payments.push({
      invoiceId: invoice.id,
      amountCents: amountDueCents(invoice),
      method,
      provider: 'manual',
      reference: method === 'check' ? `Check #${checkNumber++}` : `Wire ${invoice.number.slice(4)}`,
      paidAt: new Date(
        `${on}T${String(9 + (seed % 8)).padStart(2, '0')}:${String((seed * 7) % 60).padStart(2, '0')}:00Z`,
      ),
    });
  }
  await db.transaction((tx) => applyPayments(tx, payments));
}
