import { describe, expect, it } from 'vitest';
import { canonicalJson, stableJson } from './canonical-json';

/** The texts are written out by hand: a change to any of them changes request hashes or stored fingerprints. */
describe('sorted-key JSON', () => {
  it.each([
    ['keys by code unit', { b: 2, a: 1, B: 3, _: 0, aa: 4 }, '{"B":3,"_":0,"a":1,"aa":4,"b":2}'],
    ['digit keys as text', { é: 1, e: 2, Z: 3, '10': 4, '9': 5 }, '{"10":4,"9":5,"Z":3,"e":2,"é":1}'],
    [
      'nested objects and arrays, arrays in their order',
      { z: [{ y: 1, x: [2, { d: 'q', c: null }] }], a: { c: true, b: 'x"y' } },
      '{"a":{"b":"x\\"y","c":true},"z":[{"x":[2,{"c":null,"d":"q"}],"y":1}]}',
    ],
    ['empty ones', [{}, []], '[{},[]]'],
    ['no toJSON: a date is an object without keys', { d: new Date(0) }, '{"d":{}}'],
    ['numbers as JSON writes them', [Number.NaN, Number.POSITIVE_INFINITY, -0, 1.5], '[null,null,0,1.5]'],
    ['a string escaped', 'a\nb', '"a\\nb"'],
    ['null', null, 'null'],
  ])('%s: the same text from both', (_name, value, text) => {
    expect(stableJson(value)).toBe(text);
    expect(canonicalJson(value)).toBe(text);
  });

  it('the order keys were written in does not matter', () => {
    expect(stableJson({ a: 1, b: { c: 2, d: 3 } })).toBe(stableJson({ b: { d: 3, c: 2 }, a: 1 }));
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it('stableJson (request hashes): undefined is null wherever it is', () => {
    expect(stableJson({ a: undefined, b: 1 })).toBe('{"a":null,"b":1}');
    expect(stableJson([1, undefined, 2])).toBe('[1,null,2]');
    expect(stableJson({ f: () => 1, a: 1 })).toBe('{"a":1,"f":null}');
    expect(stableJson(undefined)).toBe('null');
  });

  it('canonicalJson (fingerprints): an undefined key is left out, elsewhere nothing is written', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson({ b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([1, undefined, 2])).toBe('[1,,2]');
    expect(canonicalJson({ f: () => 1, a: 1 })).toBe('{"a":1,"f":undefined}');
    expect(canonicalJson(undefined)).toBeUndefined();
  });
});
