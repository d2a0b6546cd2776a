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

export const EndpointCreateInput = z
  .object({ integrationId: id, publicKey: PublicKey.optional(), privateKey: PrivateKey.optional() })
  .strict()
  .refine((v) => (v.publicKey === undefined) === (v.privateKey === undefined), {
    message: 'Send publicKey and privateKey together, or neither (then set them later with setCredentials)',
    path: ['privateKey'],
  });
export const EndpointListInput = z.object({ integrationId: id.optional() }).strict().default({});
export const EndpointIdInput = z.object({ id }).strict();
export const EndpointCredentialsInput = z.object({ id, publicKey: PublicKey, privateKey: PrivateKey }).strict();
export const WebhookEventsListInput = z
  .object({
    endpointId: id.optional(),
    kind: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,79}$/)
      .optional(),
    cursor: z.string().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(100).default(25),
  })
  .strict()
  .default({});
