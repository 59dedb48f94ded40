import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import {
  isReservedWordQuery,
  reservedWord,
  reservedWordExistsQuery,
  reservedWordInput,
  reservedWordPage,
  reservedWordQuery,
  specialty,
  specialtyInput,
  specialtyPage,
  specialtyParams,
  specialtyQuery,
} from '@clinicrelay/contracts/reference-data.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-a §7 "Reserved words" and "Specialties". The catalog lists POST on /{id} for both (a create that
// names no id yet); POST on the collection does the same.
export function referenceDataRoutes(app: App, deps: service.ReferenceDataDeps) {
  const config = { roles: SYS_ADMIN };

  const words = '/api/reservedwords';
  const wordTags = ['reservedwords'];
  app.route({
    method: 'GET',
    url: words,
    config,
    schema: { tags: wordTags, querystring: reservedWordQuery, response: { 200: reservedWordPage } },
    handler: (request) => service.listReservedWords(deps, request.query),
  });
  // Static segments before /:id.
  app.route({
    method: 'GET',
    url: `${words}/exists`,
    config,
    schema: { tags: wordTags, querystring: reservedWordExistsQuery, response: { 200: z.boolean() } },
    handler: (request) => service.reservedWordExists(deps, request.query.name, request.query.id),
  });
  app.route({
    method: 'GET',
    url: `${words}/isreservedword`,
    config,
    schema: { tags: wordTags, querystring: isReservedWordQuery, response: { 200: z.boolean() } },
    handler: (request) => service.isReservedWord(deps, request.query.name),
  });
  app.route({
    method: 'GET',
    url: `${words}/:id`,
    config,
    schema: { tags: wordTags, params: idParams, response: { 200: reservedWord } },
    handler: (request) => service.getReservedWord(deps, request.params.id),
  });
  for (const url of [words, `${words}/:id`]) {
    app.route({
      method: 'POST',
      url,
      config,
      schema: { tags: wordTags, body: reservedWordInput, response: { 200: reservedWord } },
      handler: (request) => service.createReservedWord(deps, adminCaller(request), request.body),
    });
  }
  app.route({
    method: 'PUT',
    url: `${words}/:id`,
    config,
    schema: { tags: wordTags, params: idParams, body: reservedWordInput, response: { 200: reservedWord } },
    handler: (request) => service.updateReservedWord(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: `${words}/:id`,
    config,
    schema: { tags: wordTags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deleteReservedWord(deps, adminCaller(request), request.params.id),
  });

  const specialties = '/api/admin/organizationspecialties';
  const specialtyTags = ['specialties'];
  app.route({
    method: 'GET',
    url: specialties,
    config,
    schema: { tags: specialtyTags, querystring: specialtyQuery, response: { 200: specialtyPage } },
    handler: (request) => service.listSpecialties(deps, request.query),
  });
  // The organization form's full list (back-office-a §7 Organizations, "cached").
  app.route({
    method: 'GET',
    url: '/api/organizations/specialties',
    config,
    schema: { tags: specialtyTags, response: { 200: z.array(specialty) } },
    handler: () => service.allSpecialties(deps),
  });
  app.route({
    method: 'GET',
    url: `${specialties}/:id`,
    config,
    schema: { tags: specialtyTags, params: specialtyParams, response: { 200: specialty } },
    handler: (request) => service.getSpecialty(deps, request.params.id),
  });
  for (const url of [specialties, `${specialties}/:id`]) {
    app.route({
      method: 'POST',
      url,
      config,
      schema: { tags: specialtyTags, body: specialtyInput, response: { 200: specialty } },
      handler: (request) => service.createSpecialty(deps, adminCaller(request), request.body),
    });
  }
  app.route({
    method: 'PUT',
    url: `${specialties}/:id`,
    config,
    schema: { tags: specialtyTags, params: specialtyParams, body: specialtyInput, response: { 200: specialty } },
    handler: (request) => service.updateSpecialty(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: `${specialties}/:id`,
    config,
    schema: { tags: specialtyTags, params: specialtyParams, response: { 200: okResponse } },
    handler: (request) => service.deleteSpecialty(deps, adminCaller(request), request.params.id),
  });
}
