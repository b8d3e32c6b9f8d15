// Where single sign-on hands the workstation its API token: the callback (main/http/oidcRoutes.ts) sends
// the browser to `/#sso-token=<token>`, and the page (renderer/src/state/session.ts) keeps the token and
// takes it out of the address. A fragment never reaches a server (nor a log, nor a Referer). No zod here:
// the renderer imports this as a value.
export const SSO_TOKEN_FRAGMENT = 'sso-token';
