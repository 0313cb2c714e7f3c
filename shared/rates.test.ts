import { describe, expect, it } from 'vitest';
import {
  basisPointsToFraction,
  basisPointsToPercent,
  formatBasisPoints,
  fractionToBasisPoints,
  fractionToPercent,
  percentToBasisPoints,
  percentToFraction,
} from './rates';

// Literal tables worked out by hand: what a person types or the API holds, and the basis points it is.
describe('percent and basis points', () => {
  it.each([
    [0, 0],
    [5, 500],
    [8.25, 825],
    [0.01, 1],
    [7.3, 730],
    [28.5, 2850],
    [33.33, 3333],
    [100, 10_000],
    [0.005, 1], // half a basis point rounds away from zero
    [0.004, 0],
  ])('%s%% is %s bp', (percent, bp) => {
    expect(percentToBasisPoints(percent)).toBe(bp);
  });
  it.each([
    [825, 8.25],
    [500, 5],
    [1, 0.01],
    [10_000, 100],
  ])('%s bp is %s%%', (bp, percent) => {
    expect(basisPointsToPercent(bp)).toBe(percent);
  });
});

describe('fractions and basis points', () => {
  it.each([
    [0.055, 550],
    [0.05, 500],
    [0.0825, 825],
    [0.285, 2850], // 0.285 x 10000 is 2849.9999999999995 in binary
    [0.0001, 1],
    [1, 10_000],
    [0, 0],
  ])('%s is %s bp', (fraction, bp) => {
    expect(fractionToBasisPoints(fraction)).toBe(bp);
  });
  it.each([
    [550, 0.055],
    [825, 0.0825],
    [7_500, 0.75],
  ])('%s bp is %s', (bp, fraction) => {
    expect(basisPointsToFraction(bp)).toBe(fraction);
  });
  it.each([
    [5.5, 0.055],
    [5, 0.05],
    [7.3, 0.073],
    [12.25, 0.1225],
    [100, 1],
  ])('%s%% typed is the fraction %s', (percent, fraction) => {
    expect(percentToFraction(percent)).toBe(fraction);
  });
  it.each([
    [0.055, 5.5],
    [0.073, 7.3],
    [0.1225, 12.25],
    [0.0001, 0.01],
  ])('the fraction %s reads %s%%', (fraction, percent) => {
    expect(fractionToPercent(fraction)).toBe(percent);
  });
});

describe('the display form', () => {
  it.each([
    [0, '0%'],
    [500, '5%'],
    [550, '5.5%'],
    [825, '8.25%'],
    [1250, '12.5%'],
    [1, '0.01%'],
    [10_000, '100%'],
    [-250, '-2.5%'],
  ])('%s bp reads %s', (bp, text) => {
    expect(formatBasisPoints(bp)).toBe(text);
  });
});
