import { companyProfileSchema } from '@shared/contracts/company';
import {
  type CompanyLogoInfo,
  type CompanyProfile,
  emptyCompanyProfile,
  type LogoContentType,
} from '@shared/contracts/company-vocabulary';
import type { Db } from '../db/client';
import { storedSettingValue } from './company-profile.repo';
import { type Storage, StoredObjectMissing } from './storage';

/**
 * The company profile every document and customer e-mail prints (product.md section 17; decision 051): read
 * here by whoever prints it, saved by the settings module (Settings, "Company"). It is the `company` group of
 * app_settings; the logo's bytes are a stored object (lib/storage.ts) named by the `company_logo` group.
 */

export const COMPANY_SETTINGS_KEY = 'company';
export const COMPANY_LOGO_SETTINGS_KEY = 'company_logo';

/** The logo as recorded: its stored object, type by content, SHA-256, size and pixels. */
export type CompanyLogo = CompanyLogoInfo & { storageKey: string };

/** The profile with its logo's bytes, for a PDF's header. */
export type Letterhead = { company: CompanyProfile; logo: { bytes: Buffer; contentType: LogoContentType } | null };

/**
 * The legal name until an admin saves one: BUSINESS_NAME (server/config.ts). Set once, when the app is built
 * from its configuration (app.ts), like the business's time zone: one value per process.
 */
let defaultLegalName = 'AdCRM Media';

export function setDefaultLegalName(name: string): void {
  defaultLegalName = name;
}

/** The saved profile, or the default one (the legal name, every other field null) before anything is saved. */
export async function readCompanyProfile(db: Db): Promise<CompanyProfile> {
  const parsed = companyProfileSchema.safeParse(await storedSettingValue(db, COMPANY_SETTINGS_KEY));
  return parsed.success ? parsed.data : emptyCompanyProfile(defaultLegalName);
}

/** The current logo's record; null before one is uploaded. */
export async function readCompanyLogo(db: Db): Promise<CompanyLogo | null> {
  const value = (await storedSettingValue(db, COMPANY_LOGO_SETTINGS_KEY)) as CompanyLogo | undefined;
  return value?.storageKey ? value : null;
}

/** A logo's bytes; null when its object is gone from storage (the document prints without it). */
export async function readLogoBytes(storage: Storage, logo: Pick<CompanyLogo, 'storageKey'>): Promise<Buffer | null> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.get(logo.storageKey)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof StoredObjectMissing) return null;
    throw error;
  }
}

/** What a PDF made now prints at its head: today's profile and logo. */
export async function readLetterhead(db: Db, storage: Storage): Promise<Letterhead> {
  const company = await readCompanyProfile(db);
  return { company, logo: await letterheadLogo(storage, await readCompanyLogo(db)) };
}

/** A recorded logo with its bytes, or null (none, or its object gone). */
export async function letterheadLogo(
  storage: Storage,
  logo: Pick<CompanyLogo, 'storageKey' | 'contentType'> | null,
): Promise<Letterhead['logo']> {
  if (!logo) return null;
  const bytes = await readLogoBytes(storage, logo);
  return bytes ? { bytes, contentType: logo.contentType } : null;
}
