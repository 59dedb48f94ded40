import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compileODataQuery, type ODataEntitySet } from './odata.ts';
import { AppError } from './errors.ts';

const dialect = new PgDialect();
const limits = { maxTop: 1000, maxOptionLength: 4000 };

const people: ODataEntitySet = {
  name: 'people',
  key: 'Id',
  defaultOrderBy: [{ property: 'Created', descending: true }],
  properties: {
    Id: { sql: sql`p.id`, type: 'guid' },
    Name: { sql: sql`p.name`, type: 'string' },
    Age: { sql: sql`p.age`, type: 'number' },
    Active: { sql: sql`p.active`, type: 'boolean' },
    Created: { sql: sql`p.created`, type: 'datetime' },
    Steps: { sql: sql`p.steps`, type: 'string', detail: true },
  },
};

function where(filter: string) {
  const compiled = compileODataQuery(people, { $filter: filter }, limits);
  const { sql: text, params } = dialect.sqlToQuery(compiled.where!);
  return { sql: text, params };
}

function refusal(query: Record<string, unknown>): string {
  try {
    compileODataQuery(people, query, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(400);
    return (error as Error).message;
  }
  throw new Error('the query was accepted');
}

describe('OData $filter compiled to parameterized SQL', () => {
  it('compiles every comparison operator, each value a bound parameter', () => {
    expect(where('Age eq 30')).toEqual({ sql: '(p.age = $1::numeric)', params: ['30'] });
    expect(where('Age ne 30').sql).toBe('(p.age <> $1::numeric)');
    expect(where('Age gt 30').sql).toBe('(p.age > $1::numeric)');
    expect(where('Age lt 30').sql).toBe('(p.age < $1::numeric)');
    expect(where('Age ge 30').sql).toBe('(p.age >= $1::numeric)');
    expect(where('Age le 30').sql).toBe('(p.age <= $1::numeric)');
    expect(where('Age eq -1.5').params).toEqual(['-1.5']);
  });

  it('compiles and, or, not and parentheses as written', () => {
    expect(where("(Name eq 'a' or Name eq 'b') and not (Age lt 18)")).toEqual({
      sql: '(((p.name = $1::text) or (p.name = $2::text)) and (not (p.age < $3::numeric)))',
      params: ['a', 'b', '18'],
    });
    expect(where("Name eq 'a' or Name eq 'b' and Age eq 1").sql).toBe('((p.name = $1::text) or ((p.name = $2::text) and (p.age = $3::numeric)))');
  });

  it('compiles contains, startswith and endswith without LIKE patterns, and tolower/toupper/trim/length', () => {
    expect(where("contains(Name,'ab')")).toEqual({ sql: '(strpos(p.name, $1::text) > 0)', params: ['ab'] });
    expect(where("startswith(Name,'ab')")).toEqual({ sql: '(left(p.name, char_length($1::text)) = $2::text)', params: ['ab', 'ab'] });
    expect(where("endswith(Name,'ab')").sql).toBe('(right(p.name, char_length($1::text)) = $2::text)');
    expect(where("contains(tolower(Name),'ab')").sql).toBe('(strpos(lower(p.name), $1::text) > 0)');
    expect(where("toupper(Name) eq 'AB'").sql).toBe('(upper(p.name) = $1::text)');
    expect(where("trim(Name) eq 'AB'").sql).toBe('(btrim(p.name) = $1::text)');
    expect(where('length(Name) gt 3').sql).toBe('(char_length(p.name) > $1::numeric)');
    // LIKE's wildcards are plain characters: contains('%') finds a percent sign, not every row.
    expect(where("contains(Name,'%_\\')").params).toEqual(['%_\\']);
  });

  it('reads booleans, dates, guids and null', () => {
    expect(where('Active eq true')).toEqual({ sql: '(p.active = $1::boolean)', params: [true] });
    expect(where('Active')).toEqual({ sql: '(p.active = true)', params: [] });
    expect(where('Created ge 2024-01-02T03:04:05Z')).toEqual({ sql: '(p.created >= $1::timestamptz)', params: ['2024-01-02T03:04:05.000Z'] });
    expect(where('Created lt 2024-01-02').params).toEqual(['2024-01-02T00:00:00.000Z']);
    expect(where('Id eq 6B1F7A1E-1C1A-4B8A-9D1A-111111111111').params).toEqual(['6b1f7a1e-1c1a-4b8a-9d1a-111111111111']);
    expect(where('Name eq null')).toEqual({ sql: '(p.name is null)', params: [] });
    expect(where('null ne Name').sql).toBe('(p.name is not null)');
  });

  it('narrows a required eq on a property with candidates to their keys, never under not or or', () => {
    const teams: ODataEntitySet = {
      ...people,
      properties: { ...people.properties, Team: { sql: sql`t.name`, type: 'string', candidates: (value) => (value === 'Everyone' ? undefined : sql`select person_id from teams where name = ${value}`) } },
    };
    const compiled = (filter: string) => {
      const { sql: text, params } = dialect.sqlToQuery(compileODataQuery(teams, { $filter: filter }, limits).where!);
      return { sql: text, params };
    };
    expect(compiled("Team eq 'Blue' and Age gt 3")).toEqual({
      sql: '(((t.name = $1::text) and p.id = any(array(select person_id from teams where name = $2))) and (p.age > $3::numeric))',
      params: ['Blue', 'Blue', '3'],
    });
    expect(compiled("'Blue' eq Team").sql).toBe('(($1::text = t.name) and p.id = any(array(select person_id from teams where name = $2)))');
    expect(compiled("Team eq 'Everyone'").sql).toBe('(t.name = $1::text)');
    expect(compiled("Team eq 'Blue' or Age gt 3").sql).toBe('((t.name = $1::text) or (p.age > $2::numeric))');
    expect(compiled("not (Team eq 'Blue')").sql).toBe('(not (t.name = $1::text))');
    expect(compiled("Team ne 'Blue'").sql).toBe('(t.name <> $1::text)');
    expect(compileODataQuery(teams, { $filter: "Team eq 'Blue' and Age gt 3", $orderby: 'Name' }, limits).filtered).toEqual(['Team', 'Age']);
  });

  it('keeps injection attempts inside parameters', () => {
    const attack = "x'); drop table users; --";
    const q = where(`Name eq '${attack.replaceAll("'", "''")}'`);
    expect(q).toEqual({ sql: '(p.name = $1::text)', params: [attack] });
    expect(where("Name eq 'a'' or ''1''=''1'")).toEqual({ sql: '(p.name = $1::text)', params: ["a' or '1'='1"] });
    expect(where("contains(Name,'é€ %20 \" ;')").params).toEqual(['é€ %20 " ;']);
    expect(refusal({ $filter: 'Name eq 1; drop table users' })).toMatch(/^The query option '\$filter' could not be read/);
    expect(refusal({ $filter: "Name eq 'a' --" })).toMatch(/could not be read/);
    expect(refusal({ $filter: 'p.name eq 1' })).toMatch(/could not be read/);
    expect(refusal({ $orderby: 'Name; drop table users' })).toMatch(/could not be read/);
    expect(refusal({ $orderby: 'Name desc, (select 1)' })).toMatch(/could not be read|not a property|Unknown/);
    expect(refusal({ $select: 'Name,pg_sleep(10)' })).toBe("Unknown function 'pg_sleep'.");
    expect(refusal({ $top: '10; drop table users' })).toBe("The query option '$top' must be a non-negative integer.");
    expect(refusal({ $skip: '-1' })).toBe("The query option '$skip' must be a non-negative integer.");
  });

  it('names unknown properties and functions', () => {
    expect(refusal({ $filter: "Password eq 'x'" })).toBe("Unknown property 'Password' of people.");
    expect(refusal({ $filter: 'constructor eq 1' })).toBe("Unknown property 'constructor' of people.");
    expect(refusal({ $filter: "Address/City eq 'x'" })).toBe("Unknown property 'Address/City' of people.");
    expect(refusal({ $filter: 'year(Created) eq 2024' })).toBe("Unknown function 'year'.");
    expect(refusal({ $filter: "substringof('a',Name)" })).toBe("Unknown function 'substringof'.");
    expect(refusal({ $filter: 'pg_sleep(10) eq 1' })).toBe("Unknown function 'pg_sleep'.");
    expect(refusal({ $filter: "concat(Name,'a') eq 'b'" })).toBe("Unknown function 'concat'.");
    expect(refusal({ $orderby: 'Salary desc' })).toBe("Unknown property 'Salary' of people.");
    expect(refusal({ $orderby: 'tolower(Name)' })).toBe("Unknown function 'tolower'.");
    expect(refusal({ $select: 'Name,Salary' })).toBe("Unknown property 'Salary' of people.");
    expect(refusal({ $expand: 'Steps' })).toBe("The query option '$expand' is not supported.");
  });

  it('refuses values of the wrong type and misuse of detail properties', () => {
    expect(refusal({ $filter: "Age eq 'x'" })).toBe("The value 'x' is not a number.");
    expect(refusal({ $filter: 'Name eq 1' })).toBe('The value 1 is not a string.');
    expect(refusal({ $filter: 'Id eq 12' })).toBe('The value 12 is not a guid.');
    expect(refusal({ $filter: 'Created gt 1' })).toBe('The value 1 is not a datetime.');
    expect(refusal({ $filter: 'Age gt null' })).toBe('null can only be compared with eq or ne.');
    expect(refusal({ $filter: '1 eq 1' })).toBe("The comparison '1 eq 1' needs a property.");
    expect(refusal({ $filter: 'Name eq Age' })).toBe("The property 'Age' cannot be compared with a string.");
    expect(refusal({ $filter: 'Name' })).toBe("The property 'Name' is not a boolean condition.");
    expect(refusal({ $filter: "Steps eq 'x'" })).toBe("The property 'Steps' of people cannot be used in $filter.");
    expect(refusal({ $orderby: 'Steps' })).toBe("The property 'Steps' of people cannot be used in $orderby.");
    expect(refusal({ $filter: ['Age eq 1', 'Age eq 2'] })).toBe("The query option '$filter' is given more than once.");
    expect(refusal({ $filter: `Name eq '${'a'.repeat(4000)}'` })).toBe("The query option '$filter' is longer than 4000 characters.");
    expect(refusal({ $count: 'yes' })).toBe("The query option '$count' must be true or false.");
  });

  it('reads $orderby, $select, $top, $skip and $count, and always ends the order with the key', () => {
    const compiled = compileODataQuery(people, { $orderby: 'Age desc,Name', $select: 'Name, Age,Steps', $top: '5', $skip: '10', $count: 'true' }, limits);
    expect(dialect.sqlToQuery(compiled.orderBy).sql).toBe('p.age desc nulls last, p.name asc nulls first, p.id asc');
    expect(compiled).toMatchObject({ top: 5, skip: 10, count: true, select: ['Name', 'Age', 'Steps'], where: undefined });
    const defaults = compileODataQuery(people, {}, limits);
    expect(dialect.sqlToQuery(defaults.orderBy).sql).toBe('p.created desc nulls last, p.id asc');
    expect(defaults).toMatchObject({ top: undefined, skip: 0, count: false, select: ['Id', 'Name', 'Age', 'Active', 'Created'] });
    expect(compileODataQuery(people, { $select: '*' }, limits).select).toEqual(['Id', 'Name', 'Age', 'Active', 'Created']);
  });
});
