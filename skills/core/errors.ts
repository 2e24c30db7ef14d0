/**
 * The closed list of error codes Sibyl answers with, their HTTP status, and the one error
 * body shape `{ error: { code, message, fields? } }`. The error table of docs/protocols.md mirrors this.
 */
export const ERROR_CODES = {
  invalid_json: { status: 400, meaning: 'The body is missing or is not a JSON object, or does not decode under its Content-Encoding (gzip, deflate and br are inflated).' },
  invalid_body: { status: 400, meaning: 'A field is missing, unknown, of the wrong type or out of range, or nests more than 32 levels deep; `fields` names each one and its rule.' },
  payment_header_malformed: { status: 400, meaning: 'X-PAYMENT / PAYMENT-SIGNATURE is not base64 JSON of an x402 v1 or v2 payment payload.' },
  signature_invalid: { status: 401, meaning: 'Forecast access headers are incomplete or the X-Signature does not recover to X-Wallet over the documented message.' },
  signature_stale: { status: 401, meaning: 'X-Timestamp is outside the freshness window (60 s either side of the server clock).' },
  signature_replayed: { status: 401, meaning: 'This forecast access signature was already used; sign each request anew.' },
  unauthorized: { status: 401, meaning: 'A paid tool or the credit account needs a bearer token (sign-in with Ethereum, or OAuth); it is missing, unknown or expired. `WWW-Authenticate` points to the protected-resource metadata. `/metrics` under METRICS_TOKEN answers it too.' },
  sign_in_invalid: { status: 401, meaning: 'The sign-in message or its signature is invalid: wrong domain, unknown or used nonce, expired, or not signed by its address.' },
  payment_required: { status: 402, meaning: 'No payment was sent; the body and PAYMENT-REQUIRED header carry the requirements.' },
  payment_invalid: { status: 402, meaning: 'The payment failed verification; `reason` says why (signature, amount, recipient, network, time window, balance).' },
  insufficient_credit: { status: 402, meaning: 'The prepaid credit balance does not cover the call; top up with POST /api/credits/topup. Nothing was debited.' },
  nonce_already_used: { status: 402, meaning: 'This authorization was already used for another request, or with another signature; nothing was charged again. The same request sent again with the same payment gets its stored answer instead.' },
  settlement_failed: { status: 402, meaning: 'The transfer could not be settled on chain; the answer is withheld and nothing moved.' },
  forbidden_origin: { status: 403, meaning: 'The tool server (`/api/mcp`) refuses a browser Origin other than this server\'s own (PUBLIC_URL, else http://HOST:PORT and its loopback names) or MCP_ALLOWED_ORIGINS, and on a loopback server a Host that is not a loopback name (DNS-rebinding protection). Requests without Origin pass.' },
  forbidden: { status: 403, meaning: '`/metrics` refuses a client address that METRICS_ALLOW does not list.' },
  not_found: { status: 404, meaning: 'No such path.' },
  price_unavailable: { status: 404, meaning: 'The token has no pool deep enough to price it over the period; nothing was charged.' },
  token_not_found: { status: 404, meaning: 'The token is neither an address nor a symbol this chain\'s index knows; nothing was charged.' },
  transaction_not_found: { status: 404, meaning: 'No connected chain holds the transaction hash; nothing was charged.' },
  contract_not_found: { status: 404, meaning: 'No contract code at the address on that chain (an externally owned account, or nothing deployed there): a review or audit of it is refused before payment; nothing was charged.' },
  payment_in_progress: { status: 409, meaning: 'This payment is being answered by another request, or by an instance that stopped before settling it; send the same request with the same payment again after `Retry-After` for its answer. Nothing was charged again.' },
  room_busy: { status: 409, meaning: 'The report room is answering another question; send the next one when it is done. Nothing was charged.' },
  payload_too_large: { status: 413, meaning: 'The body exceeds 64 KiB.' },
  unsupported_media_type: { status: 415, meaning: 'The body is not application/json in UTF-8, or its Content-Encoding is not gzip, deflate, br or identity.' },
  no_skill_fits: { status: 422, meaning: 'No skill answers the report prompt well enough to charge for it (`reason`: off_topic, injection, weak_fit), or the skill that would needs something the prompt does not give (missing_arguments), or the question is about a capability this deployment lacks (domain_disabled or provider_unavailable, with `missing` naming it); `suggestions` names the closest skills with an example question each. Refused before payment: nothing was charged.' },
  no_answer: { status: 422, meaning: 'What was bought produced nothing: the skill answered `available: false` (or none of the rows that are its product), or the report agent ran no skill that produced an answer (none fits, an argument is missing, every one failed or had only gaps). The body is the unsold answer itself (`available: false`, its `reason`, whatever else it holds) with `charged: false` beside `error`; `message` says why. Never settled: the payment is released (no PAYMENT-RESPONSE; the authorization stays unused), a credit debit refunded, a quota unit given back.' },
  headers_too_large: { status: 431, meaning: 'The request headers exceed 16 KiB.' },
  rate_limited: { status: 429, meaning: 'Over the service\'s rate limit per minute for this payer (the catalogue gives it); `Retry-After` says when to come back. Nothing was charged.' },
  internal_error: { status: 500, meaning: 'An unexpected failure; nothing was charged.' },
  forecast_unavailable: { status: 503, meaning: 'A forecast model did not answer (or is switched off); nothing was charged and no quota was used.' },
  chain_unavailable: { status: 503, meaning: 'This deployment does not index the requested chain; nothing was charged.' },
  domain_disabled: { status: 503, meaning: 'The capability is in the spec but its engine or data source (prediction markets, equities, media; Bitcoin without a Bitcoin chain configured) is not on this deployment; nothing was charged.' },
  provider_unavailable: { status: 503, meaning: 'A provider this capability needs (a QRNG for quantum randomness) is not configured or did not answer; nothing was charged.' },
  upstream_unavailable: { status: 503, meaning: 'A chain or data source did not answer, or the chain is not indexed yet; nothing was charged.' },
  timeout: { status: 504, meaning: 'The work did not finish within its response-time target (the catalogue\'s, or the report\'s time budget); nothing was charged.' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** no_skill_fits with reason domain_disabled: the capability the question is about, which this deployment lacks. */
export interface MissingCapability {
  readonly skill: string;
  readonly title: string;
  /** Its planned domain (skills/catalog/planned.ts); null for a skill this deployment turned off. */
  readonly domain: string | null;
  readonly needs: string;
}

/** A skill a refused prompt could have asked for, with an example question it answers. */
export interface SkillSuggestion {
  skill: string;
  title: string;
  example: string;
}

export interface FieldError {
  field: string;
  rule: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldError[]; reason?: string; suggestions?: SkillSuggestion[]; missing?: MissingCapability };
}

/** A `no_answer` body: the unsold answer's own fields, marked unavailable and not charged, beside the error. */
export type UnsoldBody = ErrorBody & Record<string, unknown> & { available: false; reason: string; charged: false };

/** An error that maps to one of the codes above; thrown by skills, payments and the server. */
export class SibylError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /**
     * `retryAfterSeconds` and `wwwAuthenticate` become response headers, not body fields; `answer`
     * (no_answer only) is the unsold answer the body carries (skills/core/produced.ts).
     */
    readonly extra: { fields?: FieldError[]; reason?: string; suggestions?: SkillSuggestion[]; missing?: MissingCapability; retryAfterSeconds?: number; wwwAuthenticate?: string; answer?: Record<string, unknown> } = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  toBody(): ErrorBody | UnsoldBody {
    const { retryAfterSeconds: _retry, wwwAuthenticate: _auth, answer, ...extra } = this.extra;
    const error = { code: this.code, message: this.message, ...extra };
    if (this.code !== 'no_answer') return { error };
    // What the payer bought produced nothing: they see the answer as it is, and that it was not charged.
    const reason = typeof answer?.reason === 'string' ? answer.reason : 'nothing was produced';
    return { ...answer, available: false, reason, charged: false, error };
  }
}
