import { z } from 'zod';
import {
  addressCacheUpdate,
  cachedAddress,
  classification,
  classifications,
  documentSource,
  documentType,
  draftSave,
  idParams,
  message,
  messageList,
  messageListQuery,
  patientSave,
  releaseType,
} from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const caller = orgCaller;

// end-user §7 "Messages" for Release. Document sources, release and document types and the address
// cache are not shown in the spec; they are named in the same style.
export function messagesRoutes(app: App, deps: service.MessagesDeps) {
  const config = { roles: ORG_USERS };
  // Saving a draft or its patient changes no session, user, role or organization: the session cache stays.
  const drafts = { ...config, keepsSessions: true };
  const tags = ['messages'];

  app.route({
    method: 'GET',
    url: '/api/messages',
    config,
    schema: { tags, querystring: messageListQuery, response: { 200: messageList } },
    handler: (request) => service.listMessages(deps, caller(request), request.query),
  });
  app.route({
    method: 'GET',
    url: '/api/messages/classifications',
    config,
    schema: { tags, response: { 200: z.array(classification) } },
    handler: async () => classifications.map((c) => ({ ...c })),
  });
  app.route({
    method: 'GET',
    url: '/api/messages/:id',
    // Issue 29: an application reads a message it found in Intake (or one it sent) with intake.read.
    config: { ...config, oauthScope: 'intake.read' as const },
    schema: { tags, params: idParams, response: { 200: message } },
    handler: (request) => service.getMessage(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages',
    // Issue 29: a Release draft is the first step of sending: release.send.
    config: { ...drafts, oauthScope: 'release.send' as const },
    schema: { tags, body: draftSave, response: { 200: message } },
    handler: (request) => service.saveDraft(deps, caller(request), null, request.body),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id',
    config: { ...drafts, oauthScope: 'release.send' as const },
    schema: { tags, params: idParams, body: draftSave, response: { 200: message } },
    handler: (request) => service.saveDraft(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/patient',
    config: drafts,
    schema: { tags, params: idParams, body: patientSave, response: { 200: message } },
    handler: (request) => service.savePatient(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: '/api/messages/:id',
    config,
    schema: { tags, params: idParams, response: { 200: z.object({ message: z.string() }) } },
    handler: (request) => service.deleteMessage(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: '/api/messages/:id/copy',
    config,
    schema: { tags, params: idParams, response: { 200: message } },
    handler: (request) => service.copyMessage(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'GET',
    url: '/api/documentsources',
    config,
    schema: { tags, response: { 200: z.array(documentSource) } },
    handler: (request) => service.documentSourcesOf(deps, caller(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/releasetypes',
    config,
    schema: { tags, response: { 200: z.array(releaseType) } },
    handler: (request) => service.releaseTypesOf(deps, caller(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/documenttypes',
    config,
    schema: { tags, response: { 200: z.array(documentType) } },
    handler: (request) => service.documentTypesOf(deps, caller(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/addresscache',
    config,
    schema: { tags, response: { 200: z.array(cachedAddress) } },
    handler: (request) => service.cachedAddresses(deps, caller(request)),
  });
  app.route({
    method: 'PUT',
    url: '/api/addresscache',
    config,
    schema: { tags, body: addressCacheUpdate, response: { 200: z.array(cachedAddress) } },
    handler: (request) => service.saveCachedAddresses(deps, caller(request), request.body.addresses),
  });
}
