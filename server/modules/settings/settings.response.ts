import type { CompanyAddress, CompanyLogoInfo, CompanyProfile } from '@shared/contracts/company-vocabulary';
import type { AgencySettings, ContractSettings, NotificationSettings, TaxSettings } from '@shared/contracts/settings';
import { boolean, integer, nullableString, number, object, string } from '../../lib/response-schema';

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
  autopayChargeOn: { type: 'string', enum: ['due_date', 'issue_date'] },
});

/** The agency settings (product.md section 20). */
export const agencySettingsResponse = object<AgencySettings>({ agencyStatementsMonthly: boolean });

export const notificationSettingsResponse = object<NotificationSettings>({
  emailContractUpdates: boolean,
  emailPaymentNotifications: boolean,
  emailCommissionAlerts: boolean,
  emailSystemMaintenance: boolean,
  emailAccountSecurity: boolean,
});

/** The company profile: every field always present, null when unset (the legal name never). */
export const companyProfileResponse = object<CompanyProfile>({
  legalName: string,
  address: object<CompanyAddress>({
    street: nullableString,
    city: nullableString,
    state: nullableString,
    zip: nullableString,
    country: nullableString,
  }),
  phone: nullableString,
  billingEmail: nullableString,
  website: nullableString,
  taxId: nullableString,
  paymentInstructions: nullableString,
  invoiceFooter: nullableString,
});

export const companyLogoResponse = object<CompanyLogoInfo>({
  contentType: string,
  bytes: integer,
  width: integer,
  height: integer,
  sha256: string,
  uploadedAt: string,
});
