/**
 * oidc-provider's storage over the project's Store, so every instance on one Redis sees the same
 * clients, sessions, codes, grants and tokens. Ids are kept hashed (as the sign-in path keeps its
 * tokens): a reader of the store cannot present what it finds there. Consuming a code or refresh
 * token and revoking a grant are single atomic writes (`reserve`, a marker), so two instances
 * answering the same code at once cannot both redeem it.
 */
import { createHash } from 'node:crypto';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Store } from '../../store/store.js';

const sha = (s: string) => createHash('sha256').update(s).digest('base64url');

/** Models whose payload names the grant they were issued under. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/** How long a registered client is kept (a client that registered once and is gone is forgotten; an MCP client registers again on invalid_client). */
export const CLIENT_TTL_SECONDS = 90 * 24 * 3600;

/** Room a payload needs beyond its own expiry before the store may drop it (clock skew between instances). */
const SLACK_SECONDS = 60;

export interface AdapterOptions {
  readonly prefix: string;
  /** How long a revoked grant is remembered: at least the life of anything issued under it. */
  readonly revokedGrantTtlSeconds: number;
}

export function storeAdapterFactory(store: Store, options: AdapterOptions): (model: string) => Adapter {
  return (model) => new StoreAdapter(store, model, options);
}

const epoch = () => Math.floor(Date.now() / 1000);

class StoreAdapter implements Adapter {
  constructor(private readonly store: Store, private readonly model: string, private readonly options: AdapterOptions) {}

  private key(id: string) {
    return `${this.options.prefix}${this.model}:${sha(id)}`;
  }

  private consumedKey(id: string) {
    return `${this.options.prefix}consumed:${this.model}:${sha(id)}`;
  }

  private uidKey(uid: string) {
    return `${this.options.prefix}${this.model}:uid:${sha(uid)}`;
  }

  private userCodeKey(code: string) {
    return `${this.options.prefix}${this.model}:user-code:${sha(code)}`;
  }

  private revokedKey(grantId: string) {
    return `${this.options.prefix}revoked-grant:${sha(grantId)}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    // Registered clients have no expiry of their own: they are kept CLIENT_TTL_SECONDS, so open registration cannot fill the store.
    const seconds = typeof expiresIn === 'number' ? expiresIn + SLACK_SECONDS : this.model === 'Client' ? CLIENT_TTL_SECONDS : undefined;
    const ttlMs = seconds === undefined ? undefined : seconds * 1000;
    // The raw id stays out of the store (an empty jti says there was one); find() is asked with it and puts it back.
    const { jti, ...rest } = payload;
    await this.store.set(this.key(id), JSON.stringify(jti === undefined ? rest : { ...rest, jti: '' }), ttlMs);
    if (this.model === 'Session' && payload.uid) await this.store.set(this.uidKey(payload.uid), id, ttlMs);
    if (payload.userCode) await this.store.set(this.userCodeKey(payload.userCode), id, ttlMs);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!id) return undefined;
    const [raw, consumed] = await Promise.all([this.store.get(this.key(id)), GRANTABLE.has(this.model) ? this.store.get(this.consumedKey(id)) : null]);
    if (!raw) return undefined;
    const payload = JSON.parse(raw) as AdapterPayload;
    if (GRANTABLE.has(this.model) && payload.grantId && (await this.store.get(this.revokedKey(payload.grantId)))) return undefined;
    return { ...payload, ...('jti' in payload && { jti: id }), ...(consumed && { consumed: Number(consumed) }) };
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = await this.store.get(this.uidKey(uid));
    return id ? this.find(id) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const id = await this.store.get(this.userCodeKey(userCode));
    return id ? this.find(id) : undefined;
  }

  /** Marks a code or refresh token used, once: a second redeemer (another instance, a replay) is refused. */
  async consume(id: string): Promise<void> {
    const raw = await this.store.get(this.key(id));
    const exp = raw ? (JSON.parse(raw) as AdapterPayload).exp : undefined;
    const ttlSeconds = Math.max(1, (exp ?? epoch() + 3600) - epoch()) + SLACK_SECONDS;
    if (!(await this.store.reserve(this.consumedKey(id), String(epoch()), ttlSeconds * 1000))) {
      throw new errors.InvalidGrant(`${this.model} was already used`);
    }
  }

  async destroy(id: string): Promise<void> {
    const raw = await this.store.get(this.key(id));
    await this.store.delete(this.key(id));
    if (!raw) return;
    const payload = JSON.parse(raw) as AdapterPayload;
    if (this.model === 'Session' && payload.uid && (await this.store.get(this.uidKey(payload.uid))) === id) await this.store.delete(this.uidKey(payload.uid));
    if (payload.userCode) await this.store.delete(this.userCodeKey(payload.userCode));
  }

  /** Everything issued under the grant stops being found at once, on every instance. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.store.set(this.revokedKey(grantId), '1', this.options.revokedGrantTtlSeconds * 1000);
  }
}
