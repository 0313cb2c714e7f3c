import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LazySelect } from './lazy-select';
import { Select, SelectTrigger, SelectValue } from './select';

const options = [
  { value: 'pay_link', label: 'Pay-Link' },
  { value: 'portal', label: 'Client Portal' },
];
const noop = () => undefined;

describe('LazySelect before the Radix select is loaded', () => {
  it('reads as an empty select: a combobox with the placeholder, named by its label through the id', () => {
    const html = renderToStaticMarkup(
      <LazySelect
        value=""
        onValueChange={noop}
        placeholder="Select a payment mode"
        options={options}
        id="payment-mode"
        aria-invalid
        aria-describedby="payment-mode-message"
      />,
    );
    expect(html).toContain('<button type="button" role="combobox" aria-expanded="false" aria-autocomplete="none"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="payment-mode-message"');
    expect(html).toContain('id="payment-mode"');
    expect(html).toContain('data-placeholder=""');
    expect(html).toContain('<span style="pointer-events:none">Select a payment mode</span>');
  });

  it('shows the chosen option as the trigger does, without the placeholder mark', () => {
    const html = renderToStaticMarkup(
      <LazySelect value="portal" onValueChange={noop} placeholder="Select" display="Client Portal" options={options} />,
    );
    expect(html).toContain('<span style="pointer-events:none">Client Portal</span>');
    expect(html).not.toContain('data-placeholder');
  });

  it('looks like the Radix select trigger (the same class names)', () => {
    const classOf = (html: string) => html.match(/<button[^>]*class="([^"]*)"/)?.[1];
    const lazy = classOf(
      renderToStaticMarkup(<LazySelect value="" onValueChange={noop} placeholder="P" options={[]} />),
    );
    const radix = classOf(
      renderToStaticMarkup(
        <Select>
          <SelectTrigger>
            <SelectValue placeholder="P" />
          </SelectTrigger>
        </Select>,
      ),
    );
    expect(radix).toBeTruthy();
    expect(lazy).toBe(radix);
  });
});
