import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AdvertiserGroups } from './advertiser-groups';

type Row = { id: string; advertiserId: string; advertiserName: string };
const AGENCY = 'agency-1';
const row = (id: string, advertiserId: string, advertiserName: string): Row => ({ id, advertiserId, advertiserName });

function render(rows: Row[], customerId: string | null) {
  return renderToStaticMarkup(
    <AdvertiserGroups
      rows={rows}
      customerId={customerId}
      advertiser={(r) => ({ id: r.advertiserId, name: r.advertiserName })}
    >
      {(group, name) => <ul data-name={name ?? 'none'}>{group.map((r) => `<${r.id}>`).join('')}</ul>}
    </AdvertiserGroups>,
  );
}

describe("the portal's lists by advertiser (product.md section 20)", () => {
  it("groups an agency's rows under a heading per advertiser, in the order they come", () => {
    const html = render(
      [
        row('c1', 'bella', 'Bella Notte Trattoria'),
        row('c2', 'harbor', 'Harbor Lights'),
        row('c3', 'bella', 'Bella Notte Trattoria'),
      ],
      AGENCY,
    );
    expect(html.match(/<h3[^>]*>(.*?)<\/h3>/g)?.map((h) => h.replace(/<[^>]+>/g, ''))).toEqual([
      'Bella Notte Trattoria',
      'Harbor Lights',
    ]);
    expect(html).toContain('<ul data-name="Bella Notte Trattoria">&lt;c1&gt;&lt;c3&gt;</ul>');
    expect(html).toContain('<ul data-name="Harbor Lights">&lt;c2&gt;</ul>');
  });

  it("shows an advertiser's own rows as one list without a heading, as before", () => {
    const html = render(
      [row('c1', 'bella', 'Bella Notte Trattoria'), row('c2', 'bella', 'Bella Notte Trattoria')],
      'bella',
    );
    expect(html).toBe('<ul data-name="none">&lt;c1&gt;&lt;c2&gt;</ul>');
    expect(render([], AGENCY)).toBe('<ul data-name="none"></ul>');
  });
});
