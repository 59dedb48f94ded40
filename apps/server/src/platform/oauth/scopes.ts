import { oauthScopes } from '@clinicrelay/contracts/oauth.ts';

export const OAUTH_SCOPE_LIST = ['openid', 'offline_access', ...oauthScopes].join(' ');
