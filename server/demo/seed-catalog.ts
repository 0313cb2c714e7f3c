import type { AdType, PriceMetric } from '@shared/contracts/products';
import { amountToCents } from '@shared/money';
import type { Db } from '../db/client';
import { customers, packageItems, packages, products } from '../db/schema';

export type DemoCatalog = {
  /** The customers the two demo client accounts are linked to (each has contracts and invoices). */
  clientCustomerIds: [string, string];
  /** Every demo customer, in the order below (the two client customers first). */
  customerIds: string[];
  /**
   * Product ids by key: the nine ad types (`pre_roll`, ..., `ctn_special`), a CPM pre-roll and two holiday
   * inventory products (`homepage_takeover`, 1 slot a day; `holiday_pre_roll`, 3), all active, and
   * `retired_banner` (archived).
   */
  productIds: Record<string, string>;
  packageIds: string[];
};

type DemoCustomer = Omit<typeof customers.$inferInsert, 'id' | 'createdAt' | 'updatedAt' | 'createdBy'>;

const CUSTOMERS: DemoCustomer[] = [
  {
    name: 'Holiday Lights Co.',
    email: 'chris@holidaylights.example',
    company: 'Holiday Lights Company LLC',
    phone: '(303) 555-0142',
    address: '1200 Larimer St',
    city: 'Denver',
    state: 'CO',
    zipCode: '80204',
    country: 'USA',
    contactPerson: 'Chris Holiday',
    website: 'https://holidaylights.example',
    industry: 'Seasonal Retail',
    notes: 'Runs campaigns every November and December; wants pre-roll around family movies.',
  },
  {
    name: 'Frost & Pine Outfitters',
    email: 'dana@frostandpine.example',
    company: 'Frost & Pine Outfitters Inc.',
    phone: '(802) 555-0178',
    address: '45 Main St',
    city: 'Stowe',
    state: 'VT',
    zipCode: '05672',
    country: 'USA',
    contactPerson: 'Dana Frost',
    website: 'https://frostandpine.example',
    industry: 'Outdoor Retail',
    notes: 'Ski season focus; prefers banner and overlay placements.',
  },
  {
    name: 'Evergreen Tree Farm',
    email: 'hello@evergreentreefarm.example',
    company: 'Evergreen Tree Farm',
    phone: '(503) 555-0110',
    address: '8800 NW Skyline Blvd',
    city: 'Portland',
    state: 'OR',
    zipCode: '97231',
    country: 'USA',
    contactPerson: 'Marta Lindgren',
    industry: 'Agriculture',
  },
  {
    name: 'Sugarplum Bakery',
    email: 'orders@sugarplumbakery.example',
    company: 'Sugarplum Bakery',
    phone: '(617) 555-0193',
    address: '22 Hanover St',
    city: 'Boston',
    state: 'MA',
    zipCode: '02113',
    country: 'USA',
    contactPerson: 'Rosa Bianchi',
    website: 'https://sugarplumbakery.example',
    industry: 'Food & Beverage',
  },
  {
    name: 'North Pole Toys & Games',
    email: 'marketing@northpoletoys.example',
    company: 'North Pole Toys & Games Ltd.',
    phone: '(612) 555-0127',
    address: '300 Nicollet Mall',
    city: 'Minneapolis',
    state: 'MN',
    zipCode: '55401',
    country: 'USA',
    contactPerson: 'Eli Kringle',
    website: 'https://northpoletoys.example',
    industry: 'Toys & Games',
  },
  {
    name: 'Summit Ford',
    email: 'sales@summitford.example',
    company: 'Summit Ford Dealership',
    phone: '(720) 555-0155',
    address: '5500 S Broadway',
    city: 'Littleton',
    state: 'CO',
    zipCode: '80121',
    country: 'USA',
    contactPerson: 'Greg Alvarez',
    website: 'https://summitford.example',
    industry: 'Automotive',
    notes: 'Year-end sales event in December; approval needed from the general manager.',
  },
  {
    name: 'Lakeside Honda',
    email: 'contact@lakesidehonda.example',
    company: 'Lakeside Honda',
    phone: '(414) 555-0168',
    address: '900 W Lake Dr',
    city: 'Milwaukee',
    state: 'WI',
    zipCode: '53202',
    country: 'USA',
    contactPerson: 'Priya Raman',
    industry: 'Automotive',
  },
  {
    name: 'Maple Street Diner',
    email: 'owner@maplestreetdiner.example',
    company: 'Maple Street Diner',
    phone: '(518) 555-0104',
    address: '14 Maple St',
    city: 'Saratoga Springs',
    state: 'NY',
    zipCode: '12866',
    country: 'USA',
    contactPerson: 'Hank Dawson',
    industry: 'Restaurant',
  },
  {
    name: 'Bella Notte Trattoria',
    email: 'info@bellanotte.example',
    company: 'Bella Notte Trattoria',
    phone: '(312) 555-0186',
    address: '1441 W Taylor St',
    city: 'Chicago',
    state: 'IL',
    zipCode: '60607',
    country: 'USA',
    contactPerson: 'Giulia Russo',
    website: 'https://bellanotte.example',
    industry: 'Restaurant',
  },
  {
    name: 'Pumpkin Patch Family Farm',
    email: 'visit@pumpkinpatchfarm.example',
    company: 'Pumpkin Patch Family Farm',
    phone: '(937) 555-0131',
    address: '4100 County Rd 25',
    city: 'Urbana',
    state: 'OH',
    zipCode: '43078',
    country: 'USA',
    contactPerson: 'Lucy Harmon',
    industry: 'Agritourism',
    notes: 'October only: hayrides and corn maze.',
  },
  {
    name: 'Spooky Manor Haunted Attractions',
    email: 'boo@spookymanor.example',
    company: 'Spooky Manor Entertainment LLC',
    phone: '(407) 555-0113',
    address: '6666 International Dr',
    city: 'Orlando',
    state: 'FL',
    zipCode: '32819',
    country: 'USA',
    contactPerson: 'Vincent Graves',
    website: 'https://spookymanor.example',
    industry: 'Entertainment',
  },
  {
    name: 'Sparkle Home Décor',
    email: 'team@sparklehome.example',
    company: 'Sparkle Home Décor',
    phone: '(214) 555-0149',
    address: '2800 Routh St',
    city: 'Dallas',
    state: 'TX',
    zipCode: '75201',
    country: 'USA',
    contactPerson: 'Tanya Brooks',
    industry: 'Home Furnishings',
  },
  {
    name: 'Candlewick Gift Shop',
    email: 'shop@candlewickgifts.example',
    company: 'Candlewick Gift Shop',
    phone: '(207) 555-0162',
    address: '7 Harbor Ln',
    city: 'Bar Harbor',
    state: 'ME',
    zipCode: '04609',
    country: 'USA',
    contactPerson: 'Nora Whitfield',
    industry: 'Gifts',
  },
  {
    name: 'Riverside Garden Center',
    email: 'info@riversidegarden.example',
    company: 'Riverside Garden Center',
    phone: '(916) 555-0175',
    address: '2100 Garden Hwy',
    city: 'Sacramento',
    state: 'CA',
    zipCode: '95833',
    country: 'USA',
    contactPerson: 'Oscar Medina',
    industry: 'Garden & Nursery',
  },
  {
    name: 'Golden Harvest Grocers',
    email: 'ads@goldenharvest.example',
    company: 'Golden Harvest Grocers Co-op',
    phone: '(515) 555-0120',
    address: '350 E Locust St',
    city: 'Des Moines',
    state: 'IA',
    zipCode: '50309',
    country: 'USA',
    contactPerson: 'Beth Sorensen',
    website: 'https://goldenharvest.example',
    industry: 'Grocery',
  },
  {
    name: 'Cozy Cabin Furniture',
    email: 'sales@cozycabin.example',
    company: 'Cozy Cabin Furniture',
    phone: '(828) 555-0139',
    address: '18 Biltmore Ave',
    city: 'Asheville',
    state: 'NC',
    zipCode: '28801',
    country: 'USA',
    contactPerson: 'Wade Ellison',
    industry: 'Home Furnishings',
  },
  {
    name: 'Jingle Java Coffee',
    email: 'hello@jinglejava.example',
    company: 'Jingle Java Coffee Roasters',
    phone: '(206) 555-0197',
    address: '1530 Pike Pl',
    city: 'Seattle',
    state: 'WA',
    zipCode: '98101',
    country: 'USA',
    contactPerson: 'Mia Tran',
    website: 'https://jinglejava.example',
    industry: 'Food & Beverage',
  },
  {
    name: 'Valley Chevrolet',
    email: 'marketing@valleychevy.example',
    company: 'Valley Chevrolet',
    phone: '(602) 555-0158',
    address: '7700 W Camelback Rd',
    city: 'Phoenix',
    state: 'AZ',
    zipCode: '85033',
    country: 'USA',
    contactPerson: 'Ray Castillo',
    industry: 'Automotive',
  },
  {
    name: 'Starlight Cinemas',
    email: 'partners@starlightcinemas.example',
    company: 'Starlight Cinemas Group',
    phone: '(615) 555-0183',
    address: '401 Broadway',
    city: 'Nashville',
    state: 'TN',
    zipCode: '37203',
    country: 'USA',
    contactPerson: 'June Whitaker',
    website: 'https://starlightcinemas.example',
    industry: 'Entertainment',
  },
  {
    name: 'Peppermint Spa & Salon',
    email: 'book@peppermintspa.example',
    company: 'Peppermint Spa & Salon',
    phone: '(702) 555-0116',
    address: '3700 S Las Vegas Blvd',
    city: 'Las Vegas',
    state: 'NV',
    zipCode: '89109',
    country: 'USA',
    contactPerson: 'Sofia Marin',
    industry: 'Health & Beauty',
  },
];

type DemoProduct = {
  key: string;
  name: string;
  description: string;
  adType: AdType;
  defaultPrice: string;
  priceMetric: PriceMetric;
  defaultDuration?: number;
  seasonalPrice?: string;
  inventoryRequired?: boolean;
  /** Slots a day, for inventory products (product.md section 13). */
  capacity?: number;
  isActive?: boolean;
};

const PRODUCTS: DemoProduct[] = [
  {
    key: 'pre_roll',
    name: 'Holiday Pre-roll Video (15s)',
    description: 'A 15-second video ad before family and holiday movie streams.',
    adType: 'pre_roll',
    defaultPrice: '1200.00',
    priceMetric: 'monthly',
    defaultDuration: 30,
    seasonalPrice: '1650.00',
  },
  {
    key: 'mid_roll',
    name: 'Mid-roll Video Spot (30s)',
    description: 'A 30-second spot in the mid-film break of feature-length titles.',
    adType: 'mid_roll',
    defaultPrice: '950.00',
    priceMetric: 'monthly',
    defaultDuration: 30,
    seasonalPrice: '1300.00',
  },
  {
    key: 'post_roll',
    name: 'Post-roll Video Tag',
    description: 'A short branded tag after the credits roll.',
    adType: 'post_roll',
    defaultPrice: '600.00',
    priceMetric: 'monthly',
    defaultDuration: 30,
  },
  {
    key: 'banner',
    name: 'Homepage Banner (728x90)',
    description: 'Leaderboard banner on the streaming home screen.',
    adType: 'banner',
    defaultPrice: '450.00',
    priceMetric: 'monthly',
    seasonalPrice: '600.00',
  },
  {
    key: 'in_category',
    name: 'In-Category Sponsorship',
    description: 'Sponsor tile inside a themed category such as "Cozy Christmas Classics".',
    adType: 'in_category',
    defaultPrice: '800.00',
    priceMetric: 'monthly',
    inventoryRequired: true,
    capacity: 4,
  },
  {
    key: 'overlay',
    name: 'Lower-third Overlay',
    description: 'A translucent overlay during playback, billed per thousand impressions.',
    adType: 'overlay',
    defaultPrice: '18.50',
    priceMetric: 'cpm',
  },
  {
    key: 'ad_on_pause',
    name: 'Ad on Pause Screen',
    description: 'A full-screen still shown when a viewer pauses playback.',
    adType: 'ad_on_pause',
    defaultPrice: '700.00',
    priceMetric: 'monthly',
    seasonalPrice: '950.00',
  },
  {
    key: 'timed_qr',
    name: 'Timed QR Code Placement',
    description: 'A scannable QR code shown for 20 seconds at a chosen moment.',
    adType: 'timed_qr',
    defaultPrice: '350.00',
    priceMetric: 'monthly',
    defaultDuration: 14,
  },
  {
    key: 'ctn_special',
    name: 'CTN Seasonal Movie Special',
    description: 'Presenting sponsor of a seasonal movie night on CTN, with on-air mentions.',
    adType: 'ctn_special',
    defaultPrice: '2500.00',
    priceMetric: 'flat',
    defaultDuration: 45,
    seasonalPrice: '3500.00',
    inventoryRequired: true,
    capacity: 3,
  },
  {
    key: 'homepage_takeover',
    name: 'Homepage Takeover',
    description: 'The streaming home screen in one advertiser’s colours for a week: one advertiser at a time.',
    adType: 'banner',
    defaultPrice: '9500.00',
    priceMetric: 'flat',
    defaultDuration: 7,
    inventoryRequired: true,
    capacity: 1,
  },
  {
    key: 'holiday_pre_roll',
    name: 'Holiday Pre-roll',
    description: 'Pre-roll on the holiday movie collection for two weeks, shared by at most three advertisers a day.',
    adType: 'pre_roll',
    defaultPrice: '1800.00',
    priceMetric: 'flat',
    defaultDuration: 14,
    inventoryRequired: true,
    capacity: 3,
  },
  {
    key: 'pre_roll_cpm',
    name: 'Pre-roll Impressions (15s, CPM)',
    description: 'Pre-roll video bought by the thousand impressions: the quantity is thousands a month.',
    adType: 'pre_roll',
    defaultPrice: '24.00',
    priceMetric: 'cpm',
    seasonalPrice: '32.00',
  },
  {
    key: 'retired_banner',
    name: 'Skyscraper Banner (160x600)',
    description: 'Retired format, kept for older contracts.',
    adType: 'banner',
    defaultPrice: '300.00',
    priceMetric: 'monthly',
    isActive: false,
  },
];

type DemoPackage = {
  name: string;
  description: string;
  price: string;
  items: {
    product?: string;
    productName?: string;
    quantity?: number;
    customPrice?: string;
    customDescription?: string;
    notes?: string;
  }[];
};

const PACKAGES: DemoPackage[] = [
  {
    name: 'Holiday Starter',
    description: 'A first holiday campaign: pre-roll, a homepage banner and a QR code call to action.',
    price: '1500.00',
    items: [
      { product: 'pre_roll' },
      { product: 'banner' },
      { product: 'timed_qr', notes: 'QR links to the customer’s holiday offer page' },
    ],
  },
  {
    name: 'Seasonal Blockbuster',
    description: 'Our biggest season package, built around the CTN movie special.',
    price: '4200.00',
    items: [
      { product: 'ctn_special' },
      { product: 'pre_roll', quantity: 2, customPrice: '1100.00', customDescription: 'Two creatives in rotation' },
      { product: 'ad_on_pause' },
      {
        productName: 'Social media shout-out',
        customPrice: '150.00',
        customDescription: 'One post on our channels during the movie night',
      },
    ],
  },
  {
    name: 'Year-round Visibility',
    description: 'Steady presence all year for dealerships and restaurants.',
    price: '1900.00',
    items: [
      { product: 'in_category' },
      { product: 'mid_roll' },
      { product: 'banner', quantity: 2, notes: 'Rotate creatives monthly' },
    ],
  },
];

/** Customers, the nine ad types as products (some with seasonal prices, inventory ones with capacities, one archived extra) and three packages. */
export async function seedCatalog(db: Db): Promise<DemoCatalog> {
  return db.transaction(async (tx) => {
    const customerRows = await tx
      .insert(customers)
      .values(CUSTOMERS)
      .returning({ id: customers.id, email: customers.email });
    const customerIdByEmail = new Map(customerRows.map((row) => [row.email, row.id]));
    const customerIds = CUSTOMERS.map((c) => customerIdByEmail.get(c.email)!);

    const productRows = await tx
      .insert(products)
      .values(
        PRODUCTS.map((p) => ({
          name: p.name,
          description: p.description,
          adType: p.adType,
          defaultPriceCents: amountToCents(p.defaultPrice),
          priceMetric: p.priceMetric,
          defaultDuration: p.defaultDuration ?? null,
          seasonalPriceCents: p.seasonalPrice ? amountToCents(p.seasonalPrice) : null,
          inventoryRequired: p.inventoryRequired ?? false,
          capacity: p.inventoryRequired ? (p.capacity ?? 1) : null,
          isActive: p.isActive ?? true,
        })),
      )
      .returning({ id: products.id, name: products.name });
    const productIdByName = new Map(productRows.map((row) => [row.name, row.id]));
    const productIds = Object.fromEntries(PRODUCTS.map((p) => [p.key, productIdByName.get(p.name)!]));

    const packageIds: string[] = [];
    for (const pkg of PACKAGES) {
      const [row] = await tx
        .insert(packages)
        .values({ name: pkg.name, description: pkg.description, priceCents: amountToCents(pkg.price) })
        .returning({ id: packages.id });
      await tx.insert(packageItems).values(
        pkg.items.map((item, position) => ({
          packageId: row.id,
          productId: item.product ? productIds[item.product] : null,
          productName: item.productName ?? null,
          quantity: item.quantity ?? 1,
          customPriceCents: item.customPrice ? amountToCents(item.customPrice) : null,
          customDescription: item.customDescription ?? null,
          notes: item.notes ?? null,
          position,
        })),
      );
      packageIds.push(row.id);
    }

    return { clientCustomerIds: [customerIds[0], customerIds[1]], customerIds, productIds, packageIds };
  });
}
