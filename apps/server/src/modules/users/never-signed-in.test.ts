import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { DEMO } from '../intake/test-inbound.ts';

const URL = '/api/users/neversignedin';
const names = (body: { items: { userName: string }[] }) => body.items.map((u) => u.userName);

describe('Members who never signed in, for the Administrator’s dashboard', () => {
  const t = useTestApp();

  it('lists Leo until he signs in, never the Administrator who asks, and never another organization’s members', async () => {
    const first = await t.call(DEMO.lakesideAdmin, 'GET', URL);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(names(body)).toContain(DEMO.lakesideUser);
    expect(names(body)).not.toContain(DEMO.lakesideAdmin);
    expect(names(body)).not.toContain(DEMO.riverviewUser);
    expect(body.totalCount).toBe(body.items.length);
    expect(body.items.find((u: { userName: string }) => u.userName === DEMO.lakesideUser)).toMatchObject({ fullName: 'Leo Shore' });

    await t.login(DEMO.lakesideUser);
    expect(names((await t.call(DEMO.lakesideAdmin, 'GET', URL)).json())).not.toContain(DEMO.lakesideUser);

    expect(names((await t.call(DEMO.riverviewAdmin, 'GET', URL)).json())).not.toContain(DEMO.lakesideUser);
  });

  it('is refused to a User and to a stranger', async () => {
    expect((await t.call(DEMO.riverviewUser, 'GET', URL)).statusCode).toBe(403);
    expect((await t.call(null, 'GET', URL)).statusCode).toBe(401);
  });
});
