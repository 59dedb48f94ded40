import type { TestContext } from './app.ts';

// A logo form as a browser's FormData sends it: the entity's JSON in `jsonField`, the file (if any) in `fileField`.
export async function sendLogoForm(t: TestContext, user: string, method: 'POST' | 'PUT', url: string, fields: { json: [string, unknown]; file?: [string, string, Uint8Array] }) {
  const form = new FormData();
  form.append(fields.json[0], JSON.stringify(fields.json[1]));
  if (fields.file) form.append(fields.file[0], new Blob([Buffer.from(fields.file[2])]), fields.file[1]);
  const request = new Response(form);
  const { accessToken } = await t.login(user);
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

export const svgLogo = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
// Text that claims to be a PNG by its name only.
export const notAnImage = new TextEncoder().encode('this is not an image at all');
