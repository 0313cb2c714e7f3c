import { describe, expect, it } from 'vitest';
import { ioAcceptSchema } from './contracts/insertion-orders';
import { letterCount, visibleText } from './visible-text';

describe('visibleText', () => {
  it.each([
    ['Jane Doe', 'Jane Doe'],
    ['  Jane   Doe  ', 'Jane Doe'],
    ['\u200b\u200b\u200b', ''],
    ['\u202eeoD enaJ', 'eoD enaJ'],
    ['J\u200ba\u200dne\u00ad Doe', 'Jane Doe'],
    ['\u3164\u3164', ''],
    ['\u2800 \u2800', ''],
    ['\ufeffZoë\u2060', 'Zoë'],
    ['José\u00a0García', 'José García'],
    ['李雷', '李雷'],
  ])('%j reads as %j', (typed, shown) => {
    expect(visibleText(typed)).toBe(shown);
  });

  it('counts letters of any script, not digits or marks', () => {
    expect(letterCount('Jo')).toBe(2);
    expect(letterCount('12 ..')).toBe(0);
    expect(letterCount('李雷')).toBe(2);
    expect(letterCount('J.')).toBe(1);
  });
});

describe('the signer name of an insertion order', () => {
  const accept = (signerName: unknown) => ioAcceptSchema.safeParse({ signerName, agree: true });

  it.each([
    ['\u200b\u200b\u200b'],
    ['\u202e\u202e'],
    ['J\u200b'],
    ['  J  '],
    ['12'],
    ['\u3164\u3164\u3164'],
    ['-- ..'],
  ])('refuses %j: fewer than two visible letters', (name) => {
    const parsed = accept(name);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('Enter your full name (2-100 characters)');
  });

  it('keeps the name as it reads, without the invisible characters', () => {
    expect(accept('\u202eeoD enaJ').data?.signerName).toBe('eoD enaJ');
    expect(accept(' Giulia\u200b Russo ').data?.signerName).toBe('Giulia Russo');
    expect(accept('Li').data?.signerName).toBe('Li');
  });

  it('refuses more than 100 characters once the invisible ones are gone', () => {
    expect(accept('a'.repeat(100)).success).toBe(true);
    expect(accept(`${'a'.repeat(100)}\u200b\u200b`).success).toBe(true);
    expect(accept('a'.repeat(101)).success).toBe(false);
  });
});
