/**
 * The error bodies Google answers, copied in shape (and in wording where it is stable) so the real
 * clients raise the same GaxiosErrors they raise against Google: Drive's `{error:{code,message,
 * errors:[{domain,reason,...}]}}` and OAuth's flat `{error, error_description}`.
 */

export type DriveErrorItem = {
  message: string
  domain: string
  reason: string
  location?: string
  locationType?: string
}

export type DriveError = {
  status: number
  body: {
    error: { code: number; message: string; errors: DriveErrorItem[]; status?: string; details?: unknown[] }
  }
  headers?: Record<string, string>
}

export type OAuthError = { status: number; body: { error: string; error_description: string } }

export type FailureReason = 'rateLimitExceeded' | 'userRateLimitExceeded' | 'backendError'

function driveError(
  status: number,
  message: string,
  item: Omit<DriveErrorItem, 'message'> & { message?: string },
  extra: { status?: string; details?: unknown[] } = {},
): DriveError {
  return {
    status,
    body: { error: { code: status, message, errors: [{ message, ...item }], ...extra } },
  }
}

const BEARER_CHALLENGE = 'Bearer realm="https://accounts.google.com/", error="invalid_token"'

export const driveErrors = {
  /** No Authorization header at all. */
  loginRequired(): DriveError {
    const error = driveError(
      401,
      'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      {
        message: 'Login Required.',
        domain: 'global',
        reason: 'required',
        location: 'Authorization',
        locationType: 'header',
      },
      { status: 'UNAUTHENTICATED' },
    )
    return { ...error, headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' } }
  },

  /** An access token that is unknown, expired or revoked. */
  invalidCredentials(): DriveError {
    const error = driveError(
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      {
        message: 'Invalid Credentials',
        domain: 'global',
        reason: 'authError',
        location: 'Authorization',
        locationType: 'header',
      },
      { status: 'UNAUTHENTICATED' },
    )
    return { ...error, headers: { 'www-authenticate': BEARER_CHALLENGE } }
  },

  insufficientScopes(): DriveError {
    return driveError(
      403,
      'Request had insufficient authentication scopes.',
      { message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' },
      {
        status: 'PERMISSION_DENIED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
            domain: 'googleapis.com',
            metadata: { service: 'drive.googleapis.com' },
          },
        ],
      },
    )
  },

  notFound(fileId: string): DriveError {
    return driveError(404, `File not found: ${fileId}.`, {
      domain: 'global',
      reason: 'notFound',
      location: 'fileId',
      locationType: 'parameter',
    })
  },

  /** Drive's answer to a bad `q`, `orderBy`, `pageToken`, `pageSize`, … */
  invalidValue(location: string, message = 'Invalid Value'): DriveError {
    return driveError(400, message, {
      domain: 'global',
      reason: 'invalid',
      location,
      locationType: 'parameter',
    })
  },

  invalidFieldSelection(field: string): DriveError {
    return driveError(400, `Invalid field selection ${field}`, {
      domain: 'global',
      reason: 'invalidParameter',
      location: 'fields',
      locationType: 'parameter',
    })
  },

  requiredParameter(name: string, message = `Required parameter: ${name}`): DriveError {
    return driveError(400, message, {
      domain: 'global',
      reason: 'required',
      location: name,
      locationType: 'parameter',
    })
  },

  /** A second parent for a file (Drive allows one since September 2020). */
  cannotAddParent(): DriveError {
    return driveError(403, 'Increasing the number of parents is not allowed.', {
      domain: 'global',
      reason: 'cannotAddParent',
    })
  },

  fileNotDownloadable(): DriveError {
    return driveError(
      403,
      'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
      {
        domain: 'global',
        reason: 'fileNotDownloadable',
        location: 'alt',
        locationType: 'parameter',
      },
    )
  },

  fileNotExportable(): DriveError {
    return driveError(403, 'Export only supports Docs Editors files.', {
      domain: 'global',
      reason: 'fileNotExportable',
    })
  },

  conversionNotSupported(): DriveError {
    return driveError(400, 'The requested conversion is not supported.', {
      domain: 'global',
      reason: 'badRequest',
      location: 'convertTo',
      locationType: 'parameter',
    })
  },

  badRequest(location: string, message: string): DriveError {
    return driveError(400, message, {
      domain: 'global',
      reason: 'badRequest',
      location,
      locationType: 'parameter',
    })
  },

  exportSizeLimitExceeded(): DriveError {
    return driveError(403, 'This file is too large to be exported.', {
      domain: 'global',
      reason: 'exportSizeLimitExceeded',
    })
  },

  rangeNotSatisfiable(): DriveError {
    return driveError(416, 'Request range not satisfiable', {
      domain: 'global',
      reason: 'requestedRangeNotSatisfiable',
    })
  },

  notImplemented(path: string): DriveError {
    return driveError(404, `Not Found: the Google emulator does not implement ${path}`, {
      domain: 'global',
      reason: 'notFound',
    })
  },

  injected(reason: FailureReason): DriveError {
    if (reason === 'rateLimitExceeded') {
      return driveError(429, 'Rate Limit Exceeded', { domain: 'usageLimits', reason })
    }
    if (reason === 'userRateLimitExceeded') {
      return driveError(403, 'User Rate Limit Exceeded', { domain: 'usageLimits', reason })
    }
    return driveError(500, 'Internal Error', { domain: 'global', reason: 'backendError' })
  },
}

function oauthError(status: number, error: string, description: string): OAuthError {
  return { status, body: { error, error_description: description } }
}

/** The token and revoke endpoints (oauth2.googleapis.com). */
export const oauthErrors = {
  invalidRequest: (description: string) => oauthError(400, 'invalid_request', description),
  clientNotFound: () => oauthError(401, 'invalid_client', 'The OAuth client was not found.'),
  badClientSecret: () => oauthError(401, 'invalid_client', 'Unauthorized'),
  invalidGrant: (description = 'Bad Request') => oauthError(400, 'invalid_grant', description),
  refreshTokenRevoked: () => oauthError(400, 'invalid_grant', 'Token has been expired or revoked.'),
  redirectUriMismatch: () => oauthError(400, 'redirect_uri_mismatch', 'Bad Request'),
  unsupportedGrantType: (grantType: string) =>
    oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`),
  invalidToken: () => oauthError(400, 'invalid_token', 'Token expired or revoked'),
  tokenInfoInvalid: () => oauthError(400, 'invalid_token', 'Invalid Value'),
}
