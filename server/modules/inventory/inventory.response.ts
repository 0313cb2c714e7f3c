import type {
  AvailabilityDay,
  InventoryCalendar,
  InventoryDay,
  InventoryHolder,
  InventoryHolderContract,
  InventoryMonth,
  ProductAvailability,
} from '@shared/contracts/inventory';
import { arrayOf, boolean, integer, nullable, nullableString, number, object, string } from '../../lib/response-schema';

/** The inventory answers (lib/response-schema.ts): only these fields are ever sent. */
const day = {
  date: string,
  capacity: integer,
  booked: integer,
  held: integer,
  heldForRenewal: integer,
  available: integer,
} satisfies Record<keyof AvailabilityDay, unknown>;

const availability = {
  productId: string,
  productName: string,
  capacity: integer,
  from: string,
  to: string,
  days: arrayOf(object<AvailabilityDay>(day)),
  lowest: nullable(object<NonNullable<ProductAvailability['lowest']>>({ date: string, available: integer })),
} satisfies Record<keyof ProductAvailability, unknown>;

export const availabilityResponse = object<ProductAvailability>(availability);

const month = object<InventoryMonth>({
  month: string,
  from: string,
  to: string,
  days: integer,
  capacityUnits: integer,
  bookedUnits: integer,
  heldUnits: integer,
  sellThrough: number,
  bookedValue: number,
});

export const inventoryCalendarResponse = object<InventoryCalendar>({
  from: string,
  to: string,
  today: string,
  products: arrayOf(
    object<InventoryCalendar['products'][number]>({
      ...availability,
      adType: string,
      isActive: boolean,
      months: arrayOf(month),
    }),
  ),
});

export const inventoryDayResponse = object<InventoryDay>({
  ...day,
  productId: string,
  productName: string,
  holders: arrayOf(
    object<InventoryHolder>({
      kind: string,
      quantity: integer,
      endDate: nullableString,
      contract: nullable(
        object<InventoryHolderContract>({
          id: string,
          shortId: string,
          title: nullableString,
          customerName: nullableString,
          status: string,
          holdUntil: nullableString,
          salesRepName: nullableString,
          canOpen: boolean,
        }),
      ),
    }),
  ),
  nextFree: object<InventoryDay['nextFree']>({ quantity: integer, dates: arrayOf(string) }),
});
