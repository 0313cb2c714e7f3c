/**
 * The baseline of the contract list, search and create: bare Fastify and pg running the product's SQL
 * (the statements server/modules/contracts/contracts.repo.ts prepares, as text) and answering the same JSON,
 * without the product's plugins, validation layers, ORM or logging. `npm run bench` starts it.
 */
import { type BillableLine, calendarDayIn } from '@shared/billing';
import { type ContractFigures, contractFigures, figuresReferenceDay } from '@shared/contract-figures';
import { computeContractTotals } from '@shared/contract-totals';
import { contractBodySchema } from '@shared/contracts/contract-api';
import {
  amendmentRefusal,
  canDeleteContract,
  canEditContract,
  computeAutoStopDate,
} from '@shared/contracts/contract-lifecycle';
import { DEFAULT_TAX_SETTINGS, taxSettingsSchema } from '@shared/contracts/settings';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import { percentToBasisPoints } from '@shared/rates';
import Fastify from 'fastify';
import pg from 'pg';
import { type BareUser, bearer, sessionUser } from './session';

pg.types.setTypeParser(1082, (value) => value); // date columns stay YYYY-MM-DD, as Drizzle's mode: 'string'
pg.types.setTypeParser(20, (value) => Number(value)); // bigint cents, as Drizzle's mode: 'number'
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

const CONTRACT_COLUMNS = `"contracts"."id", "contracts"."customer_id", "contracts"."sales_rep_id", "contracts"."title",
  "contracts"."description", "contracts"."status", "contracts"."start_date", "contracts"."term_months",
  "contracts"."auto_stop_date", "contracts"."payment_mode", "contracts"."pay_link_token", "contracts"."package_id",
  "contracts"."package_price_cents", "contracts"."line_items_total_cents", "contracts"."monthly_amount_cents",
  "contracts"."seasonal_monthly_amount_cents", "contracts"."setup_fee_cents", "contracts"."total_cents",
  "contracts"."stripe_subscription_id", "contracts"."stripe_payment_link_id", "contracts"."stripe_customer_id",
  "contracts"."cancel_reason", "contracts"."sent_at", "contracts"."activated_at", "contracts"."canceled_at",
  "contracts"."created_by", "contracts"."created_at", "contracts"."updated_at", "contracts"."pause_reason",
  "contracts"."under_delivery_remedy"`;
const SEARCH = `"contracts"."search_text" like $1`;
const page = (where: string, first: number) => `select ${CONTRACT_COLUMNS}, "customers"."name" as customer_name,
    "users"."first_name" as rep_first_name, "users"."last_name" as rep_last_name
  from "contracts" left join "customers" on "customers"."id" = "contracts"."customer_id"
  left join "users" on "users"."id" = "contracts"."sales_rep_id" ${where}
  order by "contracts"."created_at" desc, "contracts"."id" desc limit $${first} offset $${first + 1}`;
/** A search's page as the product reads it: the page's ids from contracts alone, then their rows (decision 045). */
const searchPage = `select ${CONTRACT_COLUMNS}, "customers"."name" as customer_name,
    "users"."first_name" as rep_first_name, "users"."last_name" as rep_last_name
  from (select "contracts"."id", "contracts"."created_at" from "contracts" where ${SEARCH}
        order by "contracts"."created_at" desc, "contracts"."id" desc limit $2 offset $3) "found"
  inner join "contracts" on "contracts"."id" = "found"."id"
  left join "customers" on "customers"."id" = "contracts"."customer_id"
  left join "users" on "users"."id" = "contracts"."sales_rep_id"
  order by "found"."created_at" desc, "found"."id" desc`;
const total = (where: string, first: number) =>
  `select count(*) from (select 1 from "contracts" ${where} limit $${first}) "matches"`;
const STATEMENTS = {
  page: { name: 'bare_page', text: page('', 1) },
  count: { name: 'bare_count', text: total('', 1) },
  // Unnamed, as the product's: planned for each pattern.
  searchPage: { text: searchPage },
  searchCount: { text: total(`where ${SEARCH}`, 2) },
};
const COUNT_LIMIT = 1_000;

/**
 * The billing engine's preview of a page (server/modules/billing/billing.service.ts previewContracts): the
 * product's three statements (the lines, the first invoices with the last invoiced periods, the tax
 * settings), then the same shared function (shared/contract-figures.ts) for each contract.
 */
const PREVIEW = {
  lines: {
    name: 'bare_billable_lines_of',
    text: `select "contract_line_items"."contract_id", "products"."name", "contract_line_items"."product_id",
        "contract_line_items"."price_metric", "contract_line_items"."quantity", "contract_line_items"."unit_price_cents",
        "contract_line_items"."discount_cents", "contract_line_items"."seasonal_price_cents",
        "contract_line_items"."flight_start", "contract_line_items"."flight_end"
      from "contract_line_items" inner join "products" on "contract_line_items"."product_id" = "products"."id"
      where "contract_line_items"."contract_id" = any($1::uuid[])
      order by "contract_line_items"."contract_id" asc, "contract_line_items"."position" asc, "contract_line_items"."id" asc`,
  },
  invoiceRefs: {
    name: 'bare_invoice_refs_of',
    text: `select refs.contract_id,
        (select max(l.period_index) from invoices l where l.contract_id = refs.contract_id),
        "invoices"."id", "invoices"."number", "invoices"."period_start", "invoices"."due_date",
        "invoices"."subtotal_cents", "invoices"."tax_cents", "invoices"."total_cents"
      from unnest($1::uuid[], $2::date[]) as refs(contract_id, start_date)
      left join "invoices" on "invoices"."contract_id" = refs.contract_id and "invoices"."period_start" = refs.start_date`,
  },
  tax: {
    name: 'bare_settings_value',
    text: `select "value" from "app_settings" where "app_settings"."key" = $1 limit $2`,
  },
};

type FirstInvoice = {
  id: string;
  number: string | null;
  period_start: string;
  due_date: string;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
};
type Preview = ContractFigures & { issued: FirstInvoice | null };

async function previews(rows: Row[]): Promise<Map<string, Preview>> {
  const ids = rows.map((row) => row.id);
  const [lines, refs, settings] = await Promise.all([
    pool.query({ ...PREVIEW.lines, values: [ids] }),
    pool.query({ ...PREVIEW.invoiceRefs, values: [ids, rows.map((row) => row.start_date)] }),
    pool.query({ ...PREVIEW.tax, values: ['tax', 1] }),
  ]);
  const linesOf = new Map<string, BillableLine[]>(ids.map((id) => [id, []]));
  for (const l of lines.rows) {
    linesOf.get(l.contract_id)?.push({
      description: l.name,
      productId: l.product_id,
      priceMetric: l.price_metric,
      quantity: l.quantity,
      unitPriceCents: l.unit_price_cents,
      discountCents: l.discount_cents,
      seasonalPriceCents: l.seasonal_price_cents,
      flightStart: l.flight_start,
      flightEnd: l.flight_end,
    });
  }
  const refsOf = new Map(refs.rows.map((r) => [r.contract_id, r]));
  const stored = taxSettingsSchema.safeParse({ ...DEFAULT_TAX_SETTINGS, ...(settings.rows[0]?.value ?? {}) });
  const taxSettings = stored.success ? stored.data : DEFAULT_TAX_SETTINGS;
  const tax = { rateBp: percentToBasisPoints(taxSettings.defaultTaxRate), included: taxSettings.taxIncluded };
  const today = calendarDayIn(process.env.BUSINESS_TIMEZONE ?? 'UTC');
  return new Map(
    rows.map((c) => {
      const ref = refsOf.get(c.id);
      const last = ref?.max ?? undefined;
      const figures = contractFigures(
        {
          startDate: c.start_date as string,
          autoStopDate: c.auto_stop_date as string | null,
          lines: linesOf.get(c.id) ?? [],
          packageName: c.package_id === null ? null : '',
          packagePriceCents: c.package_price_cents as number,
          setupFeeCents: c.setup_fee_cents as number,
        },
        { tax, from: figuresReferenceDay({ startDate: c.start_date as string, status: c.status }, today, last) },
      );
      return [c.id, { ...figures, issued: ref?.id ? ref : null }];
    }),
  );
}

type Row = Record<string, unknown> & {
  id: string;
  status: string;
  sales_rep_id: string | null;
  created_at: Date;
  updated_at: Date;
};

/** A contract as the list shows it, key for key as server/modules/contracts/contracts.dto.ts builds it. */
function summary(user: BareUser, c: Row, preview?: Preview) {
  const writable = can(user as never, 'contract:write:any') || c.sales_rep_id === user.id;
  const state = {
    status: c.status,
    stripeSubscriptionId: c.stripe_subscription_id as string | null,
    stripePaymentLinkId: c.stripe_payment_link_id as string | null,
  };
  return {
    id: c.id,
    customerId: c.customer_id,
    customerName: c.customer_name,
    title: c.title,
    status: c.status,
    pauseReason: c.status === 'paused' ? ((c.pause_reason as string | null) ?? 'manual') : null,
    description: c.description,
    startDate: c.start_date,
    termMonths: c.term_months,
    autoStopDate: c.auto_stop_date,
    paymentMode: c.payment_mode,
    underDeliveryRemedy: c.under_delivery_remedy,
    payLinkToken: c.pay_link_token,
    payLinkUrl: c.pay_link_token ? `${process.env.PUBLIC_URL}/p/${c.pay_link_token}` : null,
    total: centsToAmount(c.total_cents as number),
    totalAmount: centsToAmount(c.total_cents as number),
    // The order of the product's response schema (contracts.response.ts), which writes the answer.
    ...(preview
      ? {
          monthlyAmount: centsToAmount(preview.monthlyCents),
          oneTimeAmount: centsToAmount(preview.oneTimeCents),
          firstInvoiceAmount: centsToAmount(preview.issued?.total_cents ?? preview.firstInvoice.totalCents),
          firstInvoiceDate: preview.issued?.period_start ?? preview.firstInvoice.periodStart,
          firstInvoiceDueDate: preview.issued?.due_date ?? preview.firstInvoice.dueDate,
          termValue: preview.termValueCents === null ? null : centsToAmount(preview.termValueCents),
          seasonalMonthlyAmount: centsToAmount(preview.seasonalMonthlyCents),
        }
      : {
          monthlyAmount: centsToAmount(c.monthly_amount_cents as number),
          oneTimeAmount: centsToAmount((c.total_cents as number) - (c.monthly_amount_cents as number)),
          firstInvoiceAmount: centsToAmount(c.total_cents as number),
          seasonalMonthlyAmount: centsToAmount(c.seasonal_monthly_amount_cents as number),
        }),
    setupFee: centsToAmount(c.setup_fee_cents as number),
    packagePrice: centsToAmount(c.package_price_cents as number),
    lineItemsTotal: centsToAmount(c.line_items_total_cents as number),
    stripeSubscriptionId: c.stripe_subscription_id,
    stripePaymentLinkId: c.stripe_payment_link_id,
    stripeCustomerId: c.stripe_customer_id,
    packageId: c.package_id,
    salesRepId: c.sales_rep_id,
    salesRepName: c.rep_first_name === null ? null : `${c.rep_first_name} ${c.rep_last_name ?? ''}`.trim(),
    cancelReason: c.cancel_reason,
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
    canEdit: writable && canEditContract(state),
    canDelete: writable && canDeleteContract(state),
    canAmend: writable && amendmentRefusal(state) === null,
  };
}

const unauthenticated = { message: 'Authentication required', code: 'UNAUTHENTICATED' };

app.get<{ Querystring: { limit?: string; offset?: string; q?: string } }>('/api/contracts', async (request, reply) => {
  const user = await sessionUser(pool, bearer(request.headers.authorization));
  if (!user) return reply.status(401).send(unauthenticated);
  const limit = Number(request.query.limit ?? 100);
  const offset = Number(request.query.offset ?? 0);
  const q = request.query.q?.trim();
  const bound = Math.max(COUNT_LIMIT, offset + limit);
  const pattern = q ? `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
  const [rows, counted] = await Promise.all([
    pool.query<Row>(
      pattern
        ? { ...STATEMENTS.searchPage, values: [pattern, limit, offset] }
        : { ...STATEMENTS.page, values: [limit, offset] },
    ),
    pool.query<{ count: number }>(
      pattern
        ? { ...STATEMENTS.searchCount, values: [pattern, bound + 1] }
        : { ...STATEMENTS.count, values: [bound + 1] },
    ),
  ]);
  const found = Number(counted.rows[0].count);
  reply.header('X-Total-Count', String(Math.min(found, bound)));
  if (found > bound) reply.header('X-Total-Count-Lower-Bound', 'true');
  const figures = await previews(rows.rows);
  return rows.rows.map((row) => summary(user, row, figures.get(row.id)));
});

/** The contract's newest insertion order (server/modules/insertion-orders), as the product reads it for the answer. */
const NEWEST_IO = `select distinct on ("insertion_orders"."contract_id") "id", "contract_id", "version", "status", "token",
    "snapshot", "content_sha256", "pdf_key", "pdf_sha256", "pdf_bytes", "customer_email", "sent_by", "sent_at",
    "viewed_at", "accepted_at", "signer_name", "signer_email", "signer_ip", "signer_user_agent", "signed_pdf_key",
    "signed_pdf_sha256", "signed_pdf_bytes", "declined_at", "decline_reason", "superseded_at"
  from "insertion_orders" where "insertion_orders"."contract_id" in ($1)
  order by "insertion_orders"."contract_id", "insertion_orders"."version" desc`;

/**
 * POST /api/contracts: the product's seventeen statements (session, customer, products, the transaction, the
 * detail with its package and lines, then the billing engine's preview and the insertion order) and its answer,
 * key for key (the figures, one-time charges and first invoice from shared/contract-figures.ts).
 */
app.post('/api/contracts', async (request, reply) => {
  const user = await sessionUser(pool, bearer(request.headers.authorization));
  if (!user) return reply.status(401).send(unauthenticated);
  const parsed = contractBodySchema.safeParse(request.body);
  if (!parsed.success) return reply.status(400).send({ message: parsed.error.issues[0].message, code: 'VALIDATION' });
  const body = parsed.data;
  const customer = await pool.query(
    'select "id", "name", "email", "company", "contact_person" from "customers" where "customers"."id" = $1 limit $2',
    [body.customerId, 1],
  );
  if (!customer.rows[0]) return reply.status(400).send({ message: 'Customer not found', code: 'VALIDATION' });
  const productIds = [...new Set(body.lineItems.map((line) => line.productId))];
  const products = await pool.query(
    `select * from "products" where "products"."id" in (${productIds.map((_, i) => `$${i + 1}`).join(', ')})`,
    productIds,
  );
  const byId = new Map(products.rows.map((p) => [p.id, p]));
  const totals = computeContractTotals({
    lineItems: body.lineItems.map((line) => ({
      quantity: line.quantity,
      unitPriceCents: line.unitPrice,
      discountCents: line.discount,
      seasonalPriceCents: byId.get(line.productId)?.seasonal_price_cents ?? null,
    })),
    packagePriceCents: 0,
    setupFeeCents: body.setupFee,
  });
  const autoStopDate = computeAutoStopDate(body.startDate, body.termMonths);
  const recurring = contractFigures(
    {
      startDate: body.startDate,
      autoStopDate,
      packageName: null,
      packagePriceCents: 0,
      setupFeeCents: body.setupFee,
      lines: body.lineItems.map((line) => ({
        description: '',
        productId: line.productId,
        priceMetric: byId.get(line.productId)?.price_metric ?? 'monthly',
        quantity: line.quantity,
        unitPriceCents: line.unitPrice,
        discountCents: line.discount,
        seasonalPriceCents: byId.get(line.productId)?.seasonal_price_cents ?? null,
        flightStart: body.startDate,
        flightEnd: null,
      })),
    },
    { from: body.startDate },
  );
  const autoStop = autoStopDate;
  const client = await pool.connect();
  let id: string;
  try {
    await client.query('begin');
    const inserted = await client.query(
      `insert into "contracts" ("customer_id", "sales_rep_id", "title", "description", "status", "start_date",
         "term_months", "auto_stop_date", "payment_mode", "package_id", "package_price_cents", "line_items_total_cents",
         "monthly_amount_cents", "seasonal_monthly_amount_cents", "setup_fee_cents", "total_cents", "created_by")
       values ($1, $2, $3, $4, 'draft', $5, $6, $7, $8, null, $9, $10, $11, $12, $13, $14, $2) returning *`,
      [
        body.customerId,
        user.id,
        body.title ?? null,
        body.description ?? null,
        body.startDate,
        body.termMonths ?? null,
        autoStop,
        body.paymentMode,
        totals.packagePrice,
        totals.lineItemsTotal,
        recurring.monthlyCents,
        recurring.seasonalMonthlyCents,
        totals.setupFee,
        totals.total,
      ],
    );
    id = inserted.rows[0].id;
    const lines = body.lineItems.map((line, position) => [
      id,
      line.productId,
      line.quantity,
      line.unitPrice,
      line.discount,
      totals.lineTotals[position],
      position,
      byId.get(line.productId)?.price_metric ?? 'monthly',
      byId.get(line.productId)?.seasonal_price_cents ?? null,
      body.startDate,
      null,
    ]);
    await client.query('delete from "contract_line_items" where "contract_line_items"."contract_id" = $1', [id]);
    await client.query(
      `insert into "contract_line_items" ("contract_id", "product_id", "quantity", "unit_price_cents",
         "discount_cents", "line_total_cents", "position", "price_metric", "seasonal_price_cents", "flight_start",
         "flight_end") values ${lines
           .map((_, i) => `(${Array.from({ length: 11 }, (_, j) => `$${i * 11 + j + 1}`).join(', ')})`)
           .join(', ')}`,
      lines.flat(),
    );
    // The inventory check's first statement (whether the contract books or holds slots); a draft does not.
    await client.query(
      `select 1 from contracts c left join inventory_holds h on h.contract_id = c.id
       where c.id = $1 and (c.status in ('active','paused') or (c.status = 'sent' and h.hold_until > now()))`,
      [id],
    );
    await client.query(
      `insert into "audit_events" ("actor_id", "action", "entity", "entity_id", "before", "after")
       values ($1, 'contract.created', 'contract', $2, null, $3)`,
      [user.id, id, JSON.stringify({ ...inserted.rows[0], lineItems: lines })],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
  // The package query runs as the product's does; the benchmark's contracts have no package.
  const [head, , lineItems] = await Promise.all([
    pool.query<Row>(
      `select ${CONTRACT_COLUMNS}, "customers"."name" as customer_name, "users"."first_name" as rep_first_name,
         "users"."last_name" as rep_last_name, "customers"."email" as customer_email,
         "customers"."company" as customer_company, "contracts"."renewal_of_id",
         "inventory_holds"."hold_until", "renewal"."id" as renewal_id, "renewal"."status" as renewal_status
       from "contracts" left join "customers" on "customers"."id" = "contracts"."customer_id"
       left join "users" on "users"."id" = "contracts"."sales_rep_id"
       left join "packages" on "packages"."id" = "contracts"."package_id"
       left join "inventory_holds" on "inventory_holds"."contract_id" = "contracts"."id"
       left join "contracts" "renewal" on "renewal"."renewal_of_id" = "contracts"."id"
       where "contracts"."id" = $1 limit $2`,
      [id, 1],
    ),
    pool.query(
      `select * from "package_items" left join "products" on "products"."id" = "package_items"."product_id"
       where "package_items"."package_id" in (select "package_id" from "contracts" where "contracts"."id" = $1)
       order by "package_items"."position" asc, "package_items"."id" asc`,
      [id],
    ),
    pool.query(
      `select l.id as line_id, l.product_id, l.quantity, l.unit_price_cents, l.discount_cents, l.line_total_cents,
              l.price_metric as line_metric, l.seasonal_price_cents as line_seasonal_cents, l.flight_start,
              l.flight_end, p.name, p.ad_type, p.default_price_cents, p.seasonal_price_cents, p.price_metric
       from "contract_line_items" l inner join "products" p on p.id = l.product_id
       where l.contract_id = $1 order by l.position asc, l.id asc`,
      [id],
    ),
  ]);
  const c = head.rows[0];
  // A new draft has no insertion order yet, and its hold (none for a draft) is not in the answer.
  const [figures] = await Promise.all([previews([c]), pool.query(NEWEST_IO, [id])]);
  const preview = figures.get(id)!;
  const issued = preview.issued;
  return reply.status(201).send({
    ...summary(user, c, preview),
    customer: { id: c.customer_id, name: c.customer_name, email: c.customer_email, company: c.customer_company },
    package: null,
    lineItems: lineItems.rows.map((l) => ({
      id: l.line_id,
      productId: l.product_id,
      quantity: l.quantity,
      unitPrice: centsToAmount(l.unit_price_cents),
      discount: centsToAmount(l.discount_cents),
      lineTotal: centsToAmount(l.line_total_cents),
      priceMetric: l.line_metric,
      seasonalPrice: l.line_seasonal_cents === null ? null : centsToAmount(l.line_seasonal_cents),
      seasonalLineTotal: centsToAmount(
        l.line_seasonal_cents === null ? l.line_total_cents : l.quantity * l.line_seasonal_cents - l.discount_cents,
      ),
      flightStart: l.flight_start,
      flightEnd: l.flight_end,
      product: {
        id: l.product_id,
        name: l.name,
        adType: l.ad_type,
        defaultPrice: centsToAmount(l.default_price_cents),
        seasonalPrice: l.seasonal_price_cents === null ? null : centsToAmount(l.seasonal_price_cents),
        priceMetric: l.price_metric,
      },
    })),
    oneTimeCharges: preview.oneTimeCharges.map((charge) => ({
      kind: charge.kind,
      description: charge.description,
      amount: centsToAmount(charge.amountCents),
      billedOn: charge.billedOn,
      inSeason: charge.seasonal,
    })),
    firstInvoice: issued
      ? {
          periodStart: issued.period_start,
          dueDate: issued.due_date,
          subtotal: centsToAmount(issued.subtotal_cents),
          tax: centsToAmount(issued.tax_cents),
          total: centsToAmount(issued.total_cents),
          number: issued.number,
        }
      : {
          periodStart: preview.firstInvoice.periodStart,
          dueDate: preview.firstInvoice.dueDate,
          subtotal: centsToAmount(preview.firstInvoice.subtotalCents),
          tax: centsToAmount(preview.firstInvoice.taxCents),
          total: centsToAmount(preview.firstInvoice.totalCents),
          number: null,
        },
    inventoryHoldUntil: null,
    renewalOfId: c.renewal_of_id,
    renewedBy: c.renewal_id ? { id: c.renewal_id, status: c.renewal_status } : null,
    insertionOrder: null,
  });
});

app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => console.log('ready'));
