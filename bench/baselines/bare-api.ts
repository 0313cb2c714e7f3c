/**
 * The baseline of the contract list, search and create: bare Fastify and pg running the product's SQL
 * (the statements server/modules/contracts/contracts.repo.ts prepares, as text) and answering the same JSON,
 * without the product's plugins, validation layers, ORM or logging. `npm run bench` starts it.
 */
import { contractFigures } from '@shared/contract-figures';
import { computeContractTotals } from '@shared/contract-totals';
import { contractBodySchema } from '@shared/contracts/contract-api';
import {
  amendmentRefusal,
  canDeleteContract,
  canEditContract,
  computeAutoStopDate,
} from '@shared/contracts/contract-lifecycle';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
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
const SEARCH = `lower(coalesce("contracts"."description", '') || ' ' || "contracts"."id"::text) like $1`;
const page = (where: string, first: number) => `select ${CONTRACT_COLUMNS}, "customers"."name" as customer_name,
    "users"."first_name" as rep_first_name, "users"."last_name" as rep_last_name
  from "contracts" left join "customers" on "customers"."id" = "contracts"."customer_id"
  left join "users" on "users"."id" = "contracts"."sales_rep_id" ${where}
  order by "contracts"."created_at" desc, "contracts"."id" desc limit $${first} offset $${first + 1}`;
const total = (where: string, first: number) =>
  `select count(*) from (select 1 from "contracts" ${where} limit $${first}) "matches"`;
const STATEMENTS = {
  page: { name: 'bare_page', text: page('', 1) },
  count: { name: 'bare_count', text: total('', 1) },
  searchPage: { name: 'bare_search_page', text: page(`where ${SEARCH}`, 2) },
  searchCount: { name: 'bare_search_count', text: total(`where ${SEARCH}`, 2) },
};
const COUNT_LIMIT = 1_000;

type Row = Record<string, unknown> & {
  id: string;
  status: string;
  sales_rep_id: string | null;
  created_at: Date;
  updated_at: Date;
};

/** A contract as the list shows it, key for key as server/modules/contracts/contracts.dto.ts builds it. */
function summary(user: BareUser, c: Row) {
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
    monthlyAmount: centsToAmount(c.monthly_amount_cents as number),
    oneTimeAmount: centsToAmount((c.total_cents as number) - (c.monthly_amount_cents as number)),
    firstInvoiceAmount: centsToAmount(c.total_cents as number),
    seasonalMonthlyAmount: centsToAmount(c.seasonal_monthly_amount_cents as number),
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
  return rows.rows.map((row) => summary(user, row));
});

/** POST /api/contracts: the product's thirteen statements (session, customer, products, the transaction, the answer). */
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
         "customers"."company" as customer_company
       from "contracts" left join "customers" on "customers"."id" = "contracts"."customer_id"
       left join "users" on "users"."id" = "contracts"."sales_rep_id"
       left join "packages" on "packages"."id" = "contracts"."package_id" where "contracts"."id" = $1 limit $2`,
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
  return reply.status(201).send({
    ...summary(user, c),
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
    inventoryHoldUntil: null,
  });
});

app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => console.log('ready'));
