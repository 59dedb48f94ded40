import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

// `npm run demo:peer` (issue 12 §6): the second installation's demo world is the first one moved to its own Direct
// domain and organization names, so the two can exchange Direct messages over SMTP like two HISPs.
export const PEER_DIRECT_DOMAIN_SUFFIX = '.peer.example.net';
export const PEER_DEMO_CA_NAME = 'ClinicRelay Demo Peer CA';
const MAIN_DIRECT_DOMAIN_SUFFIX = '.direct.example.org';

const PEER_NAMES: Record<string, string> = {
  'Lakeside Family Medicine': 'Harbor Family Medicine (peer)',
  'Riverview Cardiology': 'Summit Cardiology (peer)',
  'Hillcrest Pediatrics': 'Meadow Pediatrics (peer)',
  'Oakwood Clinic': 'Cedar Clinic (peer)',
};

export const peerOrganizationName = (name: string) => PEER_NAMES[name] ?? name;

/** Moves a freshly seeded demo world to the peer's Direct domain and names; run before its certificates are issued. */
export async function makePeerWorld(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`update document_sources set full_address = replace(full_address, ${MAIN_DIRECT_DOMAIN_SUFFIX}, ${PEER_DIRECT_DOMAIN_SUFFIX}) where type = 'Direct'`,
    );
    // The intake rules name the addresses too (their To, and a rule's name may carry one).
    await tx.execute(
      sql`update intake_rules set to_addresses = array(select replace(a, ${MAIN_DIRECT_DOMAIN_SUFFIX}, ${PEER_DIRECT_DOMAIN_SUFFIX}) from unnest(to_addresses) a),
        name = replace(name, ${MAIN_DIRECT_DOMAIN_SUFFIX}, ${PEER_DIRECT_DOMAIN_SUFFIX})`,
    );
    for (const [from, to] of Object.entries(PEER_NAMES)) await tx.execute(sql`update organizations set name = ${to} where name = ${from}`);
  });
}
