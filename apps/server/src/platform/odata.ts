import { sql, type SQL } from 'drizzle-orm';
import { filter as parseFilter, query as parseQuery } from 'odata-v4-parser';
import { type AppError, badRequest } from './errors.ts';

// OData v4 system query options ($filter, $orderby, $top, $skip, $count, $select) read by odata-v4-parser and
// compiled to drizzle `sql` fragments: every name is checked against the entity set's whitelist and every literal
// becomes a bound parameter, so nothing the caller sends is ever spliced into SQL text.

export type ODataType = 'string' | 'number' | 'boolean' | 'datetime' | 'guid';

export interface ODataProperty {
  // An expression over the entity set's FROM clause.
  sql: SQL;
  type: ODataType;
  // Detail collections (JSON) can be selected but neither filtered nor sorted, and are left out unless selected.
  detail?: true;
  // A property read through a per-row join that no index serves: for the string an `eq` at the top of a $filter
  // compares it with, a query of the keys of a superset of the rows that have it, found through indexes (undefined:
  // nothing quicker than reading the rows). The filter then reads those rows only, not every row of the set.
  candidates?: (value: string) => SQL | undefined;
}

export interface ODataEntitySet<Name extends string = string> {
  name: string;
  properties: Record<Name, ODataProperty>;
  // The key, last in every ORDER BY so pages never overlap.
  key: Name;
  defaultOrderBy: { property: Name; descending: boolean }[];
}

export interface ODataQuery {
  where: SQL | undefined;
  orderBy: SQL;
  // Undefined: the caller gave no $top (the server's page cap applies).
  top: number | undefined;
  skip: number;
  count: boolean;
  select: string[];
  // The properties the $filter reads.
  filtered: string[];
}

export interface ODataLimits {
  maxTop: number;
  maxOptionLength: number;
}

// The parser's token tree: each node has a type, a value (a child, children or a literal's EDM type) and its raw text.
interface Token {
  type: string;
  raw: string;
  value: unknown;
}
interface BinaryValue {
  left: Token;
  right: Token;
}
interface MethodValue {
  method: string;
  parameters: Token[];
}

const SUPPORTED_OPTIONS = new Set(['$filter', '$orderby', '$top', '$skip', '$count', '$select']);
const COMPARISONS: Record<string, string> = {
  EqualsExpression: '=',
  NotEqualsExpression: '<>',
  LesserThanExpression: '<',
  LesserOrEqualsExpression: '<=',
  GreaterThanExpression: '>',
  GreaterOrEqualsExpression: '>=',
};
const BOOLEAN_FUNCTIONS = new Set(['contains', 'startswith', 'endswith']);
const STRING_FUNCTIONS = new Set(['tolower', 'toupper', 'trim']);
const NUMBER_LITERALS = new Set(['Edm.SByte', 'Edm.Byte', 'Edm.Int16', 'Edm.Int32', 'Edm.Int64', 'Edm.Decimal', 'Edm.Double', 'Edm.Single']);

// The parser reads the URL form of an option (RFC 3986): percent-encode what a decoded query string may hold.
const urlForm = (text: string) => encodeURI(text);

function token(value: unknown): Token {
  return value as Token;
}

// A member expression's property name, or undefined when the token is not a plain property path.
function propertyName(node: Token): string | undefined {
  let current: Token | undefined = node;
  while (current) {
    if (current.type === 'ODataIdentifier') return (current.value as { name: string }).name;
    if (['CommonExpression', 'FirstMemberExpression', 'MemberExpression', 'PropertyPathExpression'].includes(current.type)) {
      current = current.value as Token;
      continue;
    }
    return undefined;
  }
  return undefined;
}

class Compiler {
  readonly filtered = new Set<string>();

  constructor(private readonly set: ODataEntitySet) {}

  property(name: string, use: 'filter' | 'sort' | 'select'): ODataProperty {
    const found = Object.hasOwn(this.set.properties, name) ? this.set.properties[name] : undefined;
    if (!found) throw badRequest(`Unknown property '${name}' of ${this.set.name}.`);
    if (found.detail && use !== 'select') throw badRequest(`The property '${name}' of ${this.set.name} cannot be used in $${use === 'filter' ? 'filter' : 'orderby'}.`);
    if (use === 'filter') this.filtered.add(name);
    return found;
  }

  // A path or call the parser read as a member (Address/City, pg_sleep(10)): named back to the caller.
  unknownMember(node: Token): AppError {
    const raw = decodeURI(node.raw);
    const call = /^([A-Za-z_][\w.]*)\s*\(/.exec(raw);
    if (call) return unknownFunction(call[1]!);
    if (node.type === 'FirstMemberExpression' || node.type === 'MemberExpression') return badRequest(`Unknown property '${raw}' of ${this.set.name}.`);
    return badRequest(`The $filter expression '${raw}' is not supported.`);
  }

  // A boolean expression: the whole $filter, either side of and/or, the operand of not. `required`: the expression
  // must hold for every row of the answer (the whole filter, or a side of an and that is).
  condition(node: Token, required = false): SQL {
    switch (node.type) {
      case 'CommonExpression':
        return this.condition(token(node.value), required);
      case 'AndExpression':
      case 'OrExpression': {
        const { left, right } = node.value as BinaryValue;
        const and = node.type === 'AndExpression';
        return sql`(${this.condition(left, required && and)}${and ? sql` and ` : sql` or `}${this.condition(right, required && and)})`;
      }
      case 'NotExpression':
        return sql`(not ${this.condition(token(node.value))})`;
      case 'BoolParenExpression':
        return this.condition(token(node.value), required);
      case 'MethodCallExpression':
        return this.booleanFunction(node.value as MethodValue);
      case 'FirstMemberExpression':
      case 'MemberExpression': {
        const name = propertyName(node);
        if (name === undefined) throw this.unknownMember(node);
        const property = this.property(name, 'filter');
        if (property.type !== 'boolean') throw badRequest(`The property '${name}' is not a boolean condition.`);
        return sql`(${property.sql} = true)`;
      }
      default:
        if (node.type in COMPARISONS) return this.comparison(node, required);
        throw badRequest(`The $filter expression '${decodeURI(node.raw)}' is not supported.`);
    }
  }

  comparison(node: Token, required = false): SQL {
    const operator = COMPARISONS[node.type]!;
    const { left, right } = node.value as BinaryValue;
    const leftType = this.typeOf(left);
    const rightType = this.typeOf(right);
    const type = leftType ?? rightType;
    if (!type) throw badRequest(`The comparison '${decodeURI(node.raw)}' needs a property.`);
    const leftSql = this.operand(left, type);
    const rightSql = this.operand(right, type);
    // null compares with IS, as OData means it (eq null finds the rows without a value).
    const leftNull = left.type === 'Literal' && left.value === 'null';
    const rightNull = right.type === 'Literal' && right.value === 'null';
    if (leftNull || rightNull) {
      if (operator !== '=' && operator !== '<>') throw badRequest(`null can only be compared with eq or ne.`);
      const other = leftNull ? rightSql : leftSql;
      return operator === '=' ? sql`(${other} is null)` : sql`(${other} is not null)`;
    }
    const compared = sql`(${leftSql} ${sql.raw(operator)} ${rightSql})`;
    // Only where the comparison must hold (never under not or or) may it narrow the rows to its candidates.
    const candidates = required && operator === '=' && type === 'string' ? this.candidatesOf(left, right) ?? this.candidatesOf(right, left) : undefined;
    // An array (computed once, before the rows are read) rather than `in (…)`: the keys' index then reads those rows,
    // where a semi-join may be planned as a scan of every row that probes the candidates.
    return candidates ? sql`(${compared} and ${this.set.properties[this.set.key]!.sql} = any(array(${candidates})))` : compared;
  }

  // The candidate keys when `property` names a property that has them and `value` is a string literal.
  candidatesOf(property: Token, value: Token): SQL | undefined {
    const name = property.type === 'Literal' ? undefined : propertyName(property);
    const candidates = name === undefined ? undefined : this.set.properties[name]?.candidates;
    if (!candidates || value.type !== 'Literal' || value.value !== 'Edm.String') return undefined;
    return candidates(stringLiteral(value.raw));
  }

  // The OData type of an operand, when it names one (a property or a string function); literals take their counterpart's.
  typeOf(node: Token): ODataType | undefined {
    if (node.type === 'Literal') return undefined;
    if (node.type === 'MethodCallExpression') {
      const { method } = node.value as MethodValue;
      if (STRING_FUNCTIONS.has(method)) return 'string';
      if (method === 'length') return 'number';
      throw unknownFunction(method);
    }
    const name = propertyName(node);
    if (name === undefined) throw this.unknownMember(node);
    return this.property(name, 'filter').type;
  }

  operand(node: Token, type: ODataType): SQL {
    if (node.type === 'Literal') return literal(node, type);
    if (node.type === 'MethodCallExpression') return this.valueFunction(node.value as MethodValue);
    const name = propertyName(node);
    if (name === undefined) throw this.unknownMember(node);
    const property = this.property(name, 'filter');
    if (property.type !== type) throw badRequest(`The property '${name}' cannot be compared with a ${type}.`);
    return property.sql;
  }

  stringArgument(node: Token): SQL {
    if (node.type === 'Literal') return literal(node, 'string');
    if (node.type === 'MethodCallExpression') return this.valueFunction(node.value as MethodValue);
    const name = propertyName(node);
    if (name === undefined) throw this.unknownMember(node);
    const property = this.property(name, 'filter');
    if (property.type !== 'string') throw badRequest(`The property '${name}' is not a string.`);
    return property.sql;
  }

  valueFunction({ method, parameters }: MethodValue): SQL {
    if (!STRING_FUNCTIONS.has(method) && method !== 'length') throw unknownFunction(method);
    if (parameters.length !== 1) throw badRequest(`The function '${method}' takes one argument.`);
    const argument = this.stringArgument(parameters[0]!);
    if (method === 'tolower') return sql`lower(${argument})`;
    if (method === 'toupper') return sql`upper(${argument})`;
    if (method === 'trim') return sql`btrim(${argument})`;
    return sql`char_length(${argument})`;
  }

  booleanFunction({ method, parameters }: MethodValue): SQL {
    if (!BOOLEAN_FUNCTIONS.has(method)) {
      if (STRING_FUNCTIONS.has(method) || method === 'length') throw badRequest(`The function '${method}' is not a condition.`);
      throw unknownFunction(method);
    }
    if (parameters.length !== 2) throw badRequest(`The function '${method}' takes two arguments.`);
    const [subject, search] = parameters.map((p) => this.stringArgument(p)) as [SQL, SQL];
    // strpos and left() take the search text as a value: no LIKE pattern, so % and _ match themselves.
    if (method === 'contains') return sql`(strpos(${subject}, ${search}) > 0)`;
    if (method === 'startswith') return sql`(left(${subject}, char_length(${search})) = ${search})`;
    return sql`(right(${subject}, char_length(${search})) = ${search})`;
  }
}

const unknownFunction = (method: string) => badRequest(`Unknown function '${method}'.`);

// A literal as a bound parameter of the type its counterpart expects.
function literal(node: Token, type: ODataType): SQL {
  const edm = node.value as string;
  const raw = node.raw;
  if (edm === 'null') return sql`null`;
  const mismatch = () => badRequest(`The value ${decodeURI(raw)} is not a ${type}.`);
  switch (type) {
    case 'string': {
      if (edm !== 'Edm.String') throw mismatch();
      return sql`${stringLiteral(raw)}::text`;
    }
    case 'number': {
      const value = Number(raw);
      if (!NUMBER_LITERALS.has(edm) || !Number.isFinite(value)) throw mismatch();
      return sql`${raw}::numeric`;
    }
    case 'boolean':
      if (edm !== 'Edm.Boolean') throw mismatch();
      return sql`${raw.toLowerCase() === 'true'}::boolean`;
    case 'datetime': {
      if (edm !== 'Edm.DateTimeOffset' && edm !== 'Edm.Date') throw mismatch();
      const text = decodeURIComponent(raw);
      const at = new Date(edm === 'Edm.Date' ? `${text}T00:00:00Z` : text);
      if (Number.isNaN(at.getTime())) throw mismatch();
      return sql`${at.toISOString()}::timestamptz`;
    }
    case 'guid': {
      const text = edm === 'Edm.Guid' ? raw : edm === 'Edm.String' ? stringLiteral(raw) : undefined;
      if (!text || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) throw mismatch();
      return sql`${text.toLowerCase()}::uuid`;
    }
  }
}

// 'O''Brien' in URL form → O'Brien.
function stringLiteral(raw: string): string {
  return decodeURIComponent(raw.slice(1, -1)).replaceAll("''", "'");
}

function optionText(query: Record<string, unknown>, name: string, limits: ODataLimits): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`The query option '${name}' is given more than once.`);
  if (value.length > limits.maxOptionLength) throw badRequest(`The query option '${name}' is longer than ${limits.maxOptionLength} characters.`);
  return value;
}

// Every function the compiler knows; a name the parser does not know stops it, so it is named from the text.
const KNOWN_FUNCTIONS = new Set([...BOOLEAN_FUNCTIONS, ...STRING_FUNCTIONS, 'length']);

function parseOrFail<T>(name: string, read: () => T, text: string): T {
  try {
    return read();
  } catch (error) {
    const outsideStrings = text.replace(/'(?:[^']|'')*'/g, "''");
    for (const match of outsideStrings.matchAll(/([A-Za-z_][\w.]*)\s*\(/g)) {
      const fn = match[1]!;
      if (!KNOWN_FUNCTIONS.has(fn) && !['and', 'or', 'not'].includes(fn)) throw unknownFunction(fn);
    }
    // The parser names only a position in the encoded text, which means nothing to the caller: the option is named.
    void error;
    throw badRequest(`The query option '${name}' could not be read.`);
  }
}

// "A desc, B" → "A desc,B": the parser reads no space after a comma (these lists hold no string literals).
const listText = (text: string | undefined) => text?.trim().replace(/\s*,\s*/g, ',').replace(/\s+/g, ' ');

function nonNegativeInteger(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text)) throw badRequest(`The query option '${name}' must be a non-negative integer.`);
  return Number(text);
}

export function compileODataQuery(set: ODataEntitySet, query: Record<string, unknown>, limits: ODataLimits): ODataQuery {
  for (const name of Object.keys(query)) {
    if (name.startsWith('$') && !SUPPORTED_OPTIONS.has(name)) throw badRequest(`The query option '${name}' is not supported.`);
  }
  const compiler = new Compiler(set);

  const filterText = optionText(query, '$filter', limits);
  let where: SQL | undefined;
  if (filterText !== undefined && filterText.trim() !== '') {
    const tree = parseOrFail('$filter', () => parseFilter(urlForm(filterText)) as unknown as Token | undefined, filterText);
    if (!tree) throw badRequest(`The query option '$filter' could not be read.`);
    where = compiler.condition(tree, true);
  }

  const orderParts: SQL[] = [];
  const orderText = listText(optionText(query, '$orderby', limits));
  const sorted = new Set<string>();
  if (orderText !== undefined && orderText.trim() !== '') {
    const tree = parseOrFail('$orderby', () => parseQuery(`$orderby=${urlForm(orderText)}`) as unknown as Token | undefined, orderText);
    const items = ((tree?.value as { options?: Token[] } | undefined)?.options?.[0]?.value as { items?: Token[] } | undefined)?.items;
    if (!items) throw badRequest(`The query option '$orderby' could not be read.`);
    for (const item of items) {
      const { expr, direction } = item.value as { expr: Token; direction: number };
      const name = propertyName(expr);
      if (name === undefined) {
        const method = expr.type === 'CommonExpression' ? (token(expr.value).value as Partial<MethodValue>).method : undefined;
        throw method ? unknownFunction(method) : badRequest(`The $orderby item '${decodeURI(item.raw)}' is not a property.`);
      }
      const property = compiler.property(name, 'sort');
      sorted.add(name);
      orderParts.push(direction < 0 ? sql`${property.sql} desc nulls last` : sql`${property.sql} asc nulls first`);
    }
  } else {
    for (const { property, descending } of set.defaultOrderBy) {
      const p = compiler.property(property, 'sort');
      sorted.add(property);
      orderParts.push(descending ? sql`${p.sql} desc nulls last` : sql`${p.sql} asc nulls first`);
    }
  }
  if (!sorted.has(set.key)) orderParts.push(sql`${compiler.property(set.key, 'sort').sql} asc`);

  const selectText = listText(optionText(query, '$select', limits));
  let select = Object.keys(set.properties).filter((name) => !set.properties[name]!.detail);
  if (selectText !== undefined && selectText.trim() !== '' && selectText.trim() !== '*') {
    const tree = parseOrFail('$select', () => parseQuery(`$select=${urlForm(selectText)}`) as unknown as Token | undefined, selectText);
    const items = ((tree?.value as { options?: Token[] } | undefined)?.options?.[0]?.value as { items?: Token[] } | undefined)?.items;
    if (!items) throw badRequest(`The query option '$select' could not be read.`);
    select = [];
    for (const item of items) {
      const name = decodeURI(item.raw);
      if (name === '*') {
        select.push(...Object.keys(set.properties).filter((n) => !set.properties[n]!.detail));
        continue;
      }
      compiler.property(name, 'select');
      select.push(name);
    }
    select = [...new Set(select)];
  }

  const countText = optionText(query, '$count', limits);
  if (countText !== undefined && countText !== 'true' && countText !== 'false') throw badRequest(`The query option '$count' must be true or false.`);

  return {
    where,
    orderBy: sql.join(orderParts, sql`, `),
    top: nonNegativeInteger('$top', optionText(query, '$top', limits)),
    skip: nonNegativeInteger('$skip', optionText(query, '$skip', limits)) ?? 0,
    count: countText === 'true',
    select,
    filtered: [...compiler.filtered],
  };
}

// The SELECT list of the chosen properties, each under its OData name.
export function selectList(set: ODataEntitySet, names: readonly string[]): SQL {
  const properties = set.properties;
  return sql.join(
    names.map((name) => {
      const property = properties[name]!;
      // Edm.DateTimeOffset as ISO 8601 in UTC, whatever the driver does with timestamps.
      const value = property.type === 'datetime' ? sql`to_char(${property.sql} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : property.sql;
      return sql`${value} as ${sql.identifier(name)}`;
    }),
    sql`, `,
  );
}
