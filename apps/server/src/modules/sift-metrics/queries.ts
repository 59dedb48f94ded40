import { sql } from 'drizzle-orm';
import type { SiftMetricRow } from '@clinicrelay/contracts/reports.ts';
import { queryRows, type DbOrTx } from '../../db/client.ts';

const percent = (condition: ReturnType<typeof sql>) => sql`round(100.0 * count(*) filter (where ${condition}) / count(*), 2)::float8`;
// A field is right when the run returned a value and it is what the message's patient holds now (kept or corrected).
const same = (extracted: string, saved: ReturnType<typeof sql>) => sql`nullif(trim(x.patient->>${extracted}), '') is not null and lower(trim(x.patient->>${extracted})) = lower(trim(${saved}))`;

// Sift metrics per organization for runs begun in [from, to): finished runs only (Completed or Failed).
export function findPerTenant(db: DbOrTx, range: { from: Date; to: Date }, sort: { col: 'tenant' | 'count'; dir: 'asc' | 'desc' }) {
  const direction = sql.raw(sort.dir === 'desc' ? 'desc' : 'asc');
  const order = sort.col === 'count' ? sql`count(*) ${direction}, o.name asc` : sql`o.name ${direction}, o.id`;
  return queryRows<SiftMetricRow>(
    db,
    sql`select o.name as id, o.id as "organizationId", count(*)::int as count,
        round(coalesce(avg(x.elapsed_ms), 0), 2)::float8 as elapsed,
        ${percent(sql`x.no_text`)} as "noText",
        ${percent(sql`x.error`)} as error,
        ${percent(sql`x.no_match`)} as "noMatch",
        ${percent(sql`x.conflicts`)} as conflicts,
        ${percent(sql`x.perfect_match`)} as "perfectMatch",
        ${percent(sql`x.confidence_is_very_high`)} as "confidenceIsVeryHigh",
        ${percent(same('firstName', sql`p.first_name`))} as first,
        ${percent(same('middleName', sql`p.middle_name`))} as middle,
        ${percent(same('lastName', sql`p.last_name`))} as last,
        ${percent(same('birthDate', sql`p.birth_date::text`))} as dob,
        ${percent(same('gender', sql`p.gender`))} as gender
      from patient_extractions x
        join organizations o on o.id = x.organization_id
        left join patients p on p.message_id = x.message_id
      where x.status <> 'Processing' and x.created_at >= ${range.from.toISOString()}::timestamptz and x.created_at < ${range.to.toISOString()}::timestamptz
      group by o.id, o.name
      order by ${order}`,
  );
}
