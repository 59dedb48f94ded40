import type { SQL } from 'drizzle-orm';
import { ODATA_MAX_OPTION_LENGTH, ODATA_MAX_TOP, type ODataCollection } from '@clinicrelay/contracts/message-browser.ts';
import type { Database } from '../../db/client.ts';
import { compileODataQuery, type ODataEntitySet, selectList } from '../../platform/odata.ts';
import * as q from './queries.ts';

export interface MessageBrowserDeps {
  db: Database;
}

export interface Feed {
  set: ODataEntitySet;
  from: SQL;
  // Rows outside the feed whatever the caller filters (conversion workflows only, for instance).
  scope?: SQL;
  // The FROM without its joins, for a count whose filter reads none of the properties in `joined`.
  countFrom?: { from: SQL; joined: readonly string[] };
}

const limits = { maxTop: ODATA_MAX_TOP, maxOptionLength: ODATA_MAX_OPTION_LENGTH };

// Each row of the feed's FROM is one row of its lean FROM (the joins add columns, never rows): a filter that reads
// none of the joined properties counts the same rows without running the joins for each of them.
const countFromOf = (feed: Feed, filtered: readonly string[]) =>
  feed.countFrom && !filtered.some((name) => feed.countFrom!.joined.includes(name)) ? feed.countFrom.from : feed.from;

// A page of an OData feed. A $top above the cap (or none) is served a page at a time, with @odata.nextLink to the rest.
export async function readFeed(deps: MessageBrowserDeps, feed: Feed, path: string, query: Record<string, unknown>): Promise<ODataCollection<Record<string, unknown>>> {
  const options = compileODataQuery(feed.set, query, limits);
  const where = [feed.scope, options.where].filter((part): part is SQL => part !== undefined);
  const take = Math.min(options.top ?? limits.maxTop, limits.maxTop);
  const statement = { select: selectList(feed.set, options.select), from: feed.from, where, orderBy: options.orderBy, limit: take + 1, offset: options.skip };
  const [rows, total] = await Promise.all([
    take === 0 ? Promise.resolve([]) : q.findPage(deps.db, statement),
    options.count ? q.countRows(deps.db, { where, from: countFromOf(feed, options.filtered) }) : Promise.resolve(undefined),
  ]);
  const value = rows.slice(0, take).map((row) => Object.fromEntries(options.select.map((name) => [name, row[name]])));
  const answer: ODataCollection<Record<string, unknown>> = { '@odata.context': `${path.replace(/\/odata\/.*/, '/odata')}/$metadata#${feed.set.name}`, value };
  if (total !== undefined) answer['@odata.count'] = total;
  const cutByServer = options.top === undefined || options.top > take;
  if (rows.length > take && cutByServer) {
    const next = new URLSearchParams();
    for (const [name, text] of Object.entries(query)) if (typeof text === 'string' && name !== '$skip' && name !== '$top') next.set(name, text);
    next.set('$skip', String(options.skip + take));
    if (options.top !== undefined) next.set('$top', String(options.top - take));
    answer['@odata.nextLink'] = `${path}?${next.toString()}`;
  }
  return answer;
}
