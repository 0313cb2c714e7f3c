import type { ContractSettings, NotificationSettings, TaxSettings } from '@shared/contracts/settings';
import { boolean, integer, number, object, string } from '../../lib/response-schema';

/** The settings answers (lib/response-schema.ts): the profile answers the user (users.response.ts). */
export const taxSettingsResponse = object<TaxSettings>({
  defaultTaxRate: number,
  taxIncluded: boolean,
  taxLabel: string,
});

export const contractSettingsResponse = object<ContractSettings>({
  pausePaymentsAfterExpiry: boolean,
  gracePeriodsEndOfDays: integer,
  firstReminderDays: integer,
  secondReminderDays: integer,
  pauseAfterOverdueDays: integer,
  holdDays: integer,
  deliveryGraceDays: integer,
  ioTerms: string,
});

export const notificationSettingsResponse = object<NotificationSettings>({
  emailContractUpdates: boolean,
  emailPaymentNotifications: boolean,
  emailCommissionAlerts: boolean,
  emailSystemMaintenance: boolean,
  emailAccountSecurity: boolean,
});
