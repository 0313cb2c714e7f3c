/**
 * The company profile (Settings, "Company"; product.md section 17): the words, limits and constants screens,
 * documents and e-mails share, and how the profile reads when printed. No zod here (company.ts has the schema).
 */

export type CompanyAddress = {
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
};

/** The seller on every document and customer e-mail: each field null when unset, the legal name never. */
export type CompanyProfile = {
  legalName: string;
  address: CompanyAddress;
  phone: string | null;
  billingEmail: string | null;
  website: string | null;
  taxId: string | null;
  /** How to pay besides the pay link or portal, e.g. bank details for wires; printed where something is due. */
  paymentInstructions: string | null;
  /** The closing words of every document (thanks, late-payment terms). */
  invoiceFooter: string | null;
};

/** The longest text each field takes (characters). */
export const COMPANY_LIMITS = {
  legalName: 200,
  street: 200,
  city: 100,
  state: 100,
  zip: 20,
  country: 100,
  phone: 40,
  website: 200,
  taxId: 50,
  paymentInstructions: 1000,
  invoiceFooter: 300,
} as const;

/** The logo: a PNG or JPEG, by its content, of at most 1 MB and 2,000 pixels a side. */
export const MAX_LOGO_BYTES = 1024 * 1024;
export const MAX_LOGO_PIXELS = 2000;
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];

export const COMPANY_MESSAGES = {
  legalNameRequired: 'Legal name is required',
  email: 'Enter a valid billing e-mail address',
  website: 'Enter the website address, like https://example.com',
  phone: 'Enter a phone number, like +1 503 555 0100',
  logoMissing: 'Choose a PNG or JPEG image for the logo',
  logoType: 'The logo must be a PNG or JPEG image',
  logoTooLarge: 'The logo must be at most 1 MB',
  logoUnreadable: 'The logo could not be read as an image',
  logoDimensions: `The logo can be at most ${MAX_LOGO_PIXELS.toLocaleString('en-US')} pixels wide and high`,
  noLogo: 'No logo has been uploaded',
} as const;

/** The profile before anything is saved: the legal name given, every other field null. */
export function emptyCompanyProfile(legalName: string): CompanyProfile {
  return {
    legalName,
    address: { street: null, city: null, state: null, zip: null, country: null },
    phone: null,
    billingEmail: null,
    website: null,
    taxId: null,
    paymentInstructions: null,
    invoiceFooter: null,
  };
}

/** The address as printed: the street, "City, ST 12345", the country; lines left out when empty. */
export function companyAddressLines(address: CompanyAddress): string[] {
  const stateZip = [address.state, address.zip].filter(Boolean).join(' ');
  const cityLine = [address.city, stateZip].filter(Boolean).join(', ');
  return [address.street, cityLine, address.country].filter((line): line is string => Boolean(line));
}

/** Phone, billing e-mail and website in one line ("+1 503 555 0100 · billing@... · https://..."); null if none. */
export function companyContactLine(profile: Pick<CompanyProfile, 'phone' | 'billingEmail' | 'website'>): string | null {
  const parts = [profile.phone, profile.billingEmail, profile.website].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

/** "Tax ID: 12-3456789", or null without one. */
export function companyTaxIdLine(profile: Pick<CompanyProfile, 'taxId'>): string | null {
  return profile.taxId ? `Tax ID: ${profile.taxId}` : null;
}

/** The logo as PUT /api/settings/company/logo answers it (its bytes are at GET /api/settings/company/logo). */
export type CompanyLogoInfo = {
  contentType: LogoContentType;
  /** Its size in bytes. */
  bytes: number;
  width: number;
  height: number;
  sha256: string;
  uploadedAt: string;
};

/** Where the logo is served (public: it is printed on every document). */
export const COMPANY_LOGO_PATH = '/api/settings/company/logo';
