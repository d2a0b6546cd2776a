import { z } from 'zod';

const id = z.string().uuid();

/** gwa API public keys: letters, digits, `_`, `.` and `-` (never `|` or `&`, which separate signature pairs). */
const PublicKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/, 'Letters, digits, _ . and - only');
/** The private key: printable ASCII without spaces; it is encrypted at rest and never shown again. */
const PrivateKey = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces');

/** The gwc signing secret as the provider shows it (`whsec_…`); encrypted at rest and never shown again. */
const SigningSecret = z
  .string()
  .max(200)
  .regex(/^whsec_[A-Za-z0-9+/=_-]{16,}$/, 'Expected the endpoint signing secret, whsec_ followed by at least 16 characters');

export const EndpointCreateInput = z
  .object({
    integrationId: id,
    publicKey: PublicKey.optional(),
    privateKey: PrivateKey.optional(),
    signingSecret: SigningSecret.optional(),
  })
  .strict()
  .refine((v) => (v.publicKey === undefined) === (v.privateKey === undefined), {
    message: 'Send publicKey and privateKey together, or neither (then set them later with setCredentials)',
    path: ['privateKey'],
  });
export const EndpointListInput = z.object({ integrationId: id.optional() }).strict().default({});
export const EndpointIdInput = z.object({ id }).strict();
/** gwa: `publicKey` and `privateKey`; gwc: `signingSecret`. Which one the endpoint takes is checked against its provider. */
export const EndpointCredentialsInput = z
  .object({ id, publicKey: PublicKey.optional(), privateKey: PrivateKey.optional(), signingSecret: SigningSecret.optional() })
  .strict()
  .refine((v) => (v.publicKey === undefined) === (v.privateKey === undefined), {
    message: 'Send publicKey and privateKey together (gwa), or signingSecret (gwc)',
    path: ['privateKey'],
  });
export const WebhookEventsListInput = z
  .object({
    endpointId: id.optional(),
    // gwa notification kinds (`transaction_settled`) and gwc event types (`payment_intent.succeeded`).
    kind: z
      .string()
      .regex(/^[a-z][a-z0-9_.]{0,79}$/, 'An event kind: lowercase letters, digits, _ and .')
      .optional(),
    cursor: z.string().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(100).default(25),
  })
  .strict()
  .default({});
