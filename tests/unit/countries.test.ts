import { describe, expect, it } from 'vitest';
import { billingDetailsSchema } from '../../src/shared/billing';
import { COUNTRIES, COUNTRY_OPTIONS, countryName, isCountry } from '../../src/shared/countries';

// one list of countries for the catalogue and billing (issue 57: two lists named countries differently)
describe('countries', () => {
  const billing = (country: string) =>
    billingDetailsSchema.safeParse({ legalName: 'Acme', addressLine1: '1 Road', city: 'Town', country, email: 'a@b.co' });

  it('the billing form and the catalogue accept the same codes, and name them alike', () => {
    for (const code of Object.keys(COUNTRIES)) {
      expect(isCountry(code)).toBe(true);
      expect(billing(code).success, code).toBe(true);
    }
    expect(billing('XX').success).toBe(false);
    expect(isCountry('XX')).toBe(false);
    // the names come from the list, not from the runtime's Intl (which names some differently)
    expect(countryName('TR')).toBe(COUNTRIES.TR);
    expect(countryName('MM')).toBe(COUNTRIES.MM);
    expect(countryName('XX')).toBe('XX');
  });

  it('the pickers offer every country once, sorted by name', () => {
    expect(COUNTRY_OPTIONS).toHaveLength(Object.keys(COUNTRIES).length);
    const names = COUNTRY_OPTIONS.map(([, n]) => n);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(names);
  });
});
