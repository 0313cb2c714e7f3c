import { idParamSchema, isCalendarDate } from '@shared/contracts/common';
import {
  availabilityQuerySchema,
  inventoryCalendarQuerySchema,
  inventoryDayQuerySchema,
} from '@shared/contracts/inventory';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { businessToday } from '../../lib/business-day';
import { badRequest } from '../../lib/errors';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import { availabilityResponse, inventoryCalendarResponse, inventoryDayResponse } from './inventory.response';
import { getAvailability, getInventoryCalendar, getInventoryDay } from './inventory.service';

const DAY_NOT_DATE = 'The day must be a date (YYYY-MM-DD)';

/** A malformed product id names no record (404); a day that is not a date is a bad input (400, below). */
const dayParamsSchema = z.object({ productId: z.string().uuid('Not a valid product id'), date: z.string() });

/**
 * Inventory of holiday placements (product.md section 13), for the people who sell it: a product's
 * availability by day, the calendar of every inventory product (days and months), and who holds a day (with
 * the next free days after it).
 */
export async function inventoryRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: ['inventory:read:any', 'inventory:read:own'] as const };
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.get(
    '/api/products/:id/availability',
    {
      config: { ...config, conflict: 'The product is not an inventory product: its units are not counted by the day.' },
      schema: {
        summary: "Get a product's availability by day",
        params: idParamSchema,
        querystring: availabilityQuerySchema,
        response: { 200: availabilityResponse },
      },
      ...answers,
    },
    async (request) => getAvailability(app.db, request.params.id, request.query),
  );

  r.get(
    '/api/inventory',
    {
      config,
      schema: {
        summary: 'Get the inventory calendar',
        querystring: inventoryCalendarQuerySchema(() => businessToday()),
        response: { 200: inventoryCalendarResponse },
      },
      ...answers,
    },
    async (request) => getInventoryCalendar(app.db, request.query),
  );

  r.get(
    '/api/inventory/:productId/:date',
    {
      config,
      schema: {
        summary: 'Get who holds a product on a day',
        params: dayParamsSchema,
        querystring: inventoryDayQuerySchema,
        response: { 200: inventoryDayResponse },
      },
      ...answers,
    },
    async (request) => {
      const { productId, date } = request.params;
      if (!isCalendarDate(date)) throw badRequest(DAY_NOT_DATE, { date: [DAY_NOT_DATE] });
      return getInventoryDay(app.db, request.user!, productId, date, request.query.quantity);
    },
  );
}
