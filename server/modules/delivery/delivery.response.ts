import type { DeliveryImportResult, DeliveryPushResult } from '@shared/contracts/delivery';
import { arrayOf, integer, object } from '../../lib/response-schema';
import { deliveryPeriodResponse } from '../invoices/invoices.response';

export { deliveryPeriodResponse };
export const deliveryListResponse = arrayOf(deliveryPeriodResponse);

export const deliveryImportResponse = object<DeliveryImportResult>({
  rows: integer,
  recorded: integer,
  unchanged: integer,
  credits: integer,
  makegoods: integer,
});

export const deliveryPushResponse = object<DeliveryPushResult>({
  rows: integer,
  changed: integer,
  credits: integer,
  makegoods: integer,
  periods: deliveryListResponse,
});
