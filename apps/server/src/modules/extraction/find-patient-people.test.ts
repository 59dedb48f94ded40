import { describe, expect, it } from 'vitest';
import { findPatient } from './find-patient.ts';

// Every field is one person's: the patient's. A value read with another person's name never fills a field, and a
// page naming several people who could be the patient says so.

const today = new Date('2026-06-01T00:00:00Z');

describe('reading the patient from a page that names several people', () => {
  it("a letter about one patient never takes the middle name of another person it names", () => {
    const letter = [
      'Lakeside Family Medicine',
      '',
      'RE: Maria Alvarez',
      'DOB: 04/12/1958',
      '',
      'Dear colleague,',
      'Thank you for seeing Ms. Alvarez today. Her husband, Mr. Robert Lee Johnson, will bring her to the visit.',
    ].join('\n');
    const found = findPatient(letter, today);
    expect(found.patient).toEqual({ firstName: 'Maria', middleName: null, lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
    expect(found.severalPeople).toBe(true);
  });

  it('a referral with the patient and the referring physician keeps the physician out and does not warn', () => {
    const referral = [
      'Patient Name: Thomas Nguyen',
      'DOB: 07/30/1971   Sex: M',
      'Referring Physician: Dr. Michael James Kim',
      'Reason: chest pain',
    ].join('\n');
    const found = findPatient(referral, today);
    expect(found.patient).toEqual({ firstName: 'Thomas', middleName: null, lastName: 'Nguyen', birthDate: '1971-07-30', gender: 'M' });
    expect(found.severalPeople).toBe(false);
  });

  it("keeps the patient's own middle name, read from the patient's name, with a family member named in the narrative", () => {
    const note = [
      'Patient: ALVAREZ, MARIA ELENA',
      'DOB: 04/12/1958',
      '',
      'Accompanied by her daughter, Ms. Sofia Isabel Alvarez, who gave the history.',
    ].join('\n');
    const found = findPatient(note, today);
    expect(found.patient).toMatchObject({ firstName: 'Maria', middleName: 'Elena', lastName: 'Alvarez' });
    expect(found.severalPeople).toBe(true);
  });

  it('a page naming two patients fills no name from either and warns', () => {
    const page = ['Name: John Quincy Smith', 'DOB: 01/02/1960', '', 'Name: Ana Beatriz Ruiz', 'DOB: 03/04/1970'].join('\n');
    const found = findPatient(page, today);
    expect(found.patient).toEqual({ firstName: null, middleName: null, lastName: null, birthDate: null, gender: null });
    // No middle name is read at all: with no patient chosen, a middle name has no one to belong to.
    expect(found.conflicting).toEqual(['first', 'last', 'dob']);
    expect(found.severalPeople).toBe(true);
  });

  it('a patient named twice, once with an initial, is one person', () => {
    const page = ['Patient Name: Smith, John Q', 'DOB: 01/02/1960', '', 'Summary for Mr. J Smith.'].join('\n');
    const found = findPatient(page, today);
    expect(found.patient).toMatchObject({ firstName: 'John', middleName: 'Q', lastName: 'Smith' });
    expect(found.severalPeople).toBe(false);
  });

  it("never combines the first name of one person with another's middle name when the names conflict", () => {
    // Two whole names with labels: first and last conflict, so no middle name may be filled from either.
    const page = ['Patient: Maria Alvarez', 'Name: John Quincy Smith'].join('\n');
    const found = findPatient(page, today);
    expect(found.patient.middleName).toBeNull();
    expect(found.severalPeople).toBe(true);
  });
});
