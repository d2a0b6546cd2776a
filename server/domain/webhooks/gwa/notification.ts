import { childOf, parseXml, XmlError, type XmlElement } from './xml.js';

/**
 * A verified gwa notification reduced to what the service uses
 * (docs/provider-facts.md §1.4 items 5-6). The raw document is never kept: a
 * sample refund notification carries a card number and CVV, so only these
 * fields are stored (docs/decisions.md, "gwa webhook").
 */
export interface Notification {
  kind: string;
  /** The provider's notification time, whole seconds in UTC. */
  timestamp: Date;
  sourceMerchantId: string | null;
  subject: Subject;
}

/** The subject element's name (`transaction`, `dispute`, `check`, …) and the fields the service reads from it. */
export interface Subject {
  type: string;
  /** The subject's own id (transaction, dispute, disbursement, subscription …); null when it has none (`check`). */
  id: string | null;
  transaction: TransactionFields | null;
}

export interface TransactionFields {
  id: string;
  status: string | null;
  type: string | null;
  amount: string | null;
  currencyIsoCode: string | null;
  merchantAccountId: string | null;
  refundedTransactionId: string | null;
}

export class InvalidNotification extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidNotification';
  }
}

const KIND = /^[a-z][a-z0-9_]{0,79}$/;
const SUBJECT_ID = /^[A-Za-z0-9_-]{1,160}$/;
/** The provider writes `2024-01-01T00:00:00Z`; fractions and offsets are accepted and normalized. */
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

/** The text of a child element, trimmed; null when absent, empty or `nil="true"`. */
function field(parent: XmlElement, name: string): string | null {
  const element = childOf(parent, name);
  if (!element || element.attributes.nil === 'true') return null;
  if (element.children.length > 0) throw new InvalidNotification(`<${name}> must hold text`);
  const value = element.text.trim();
  return value === '' ? null : value;
}

function identifier(parent: XmlElement, name: string): string | null {
  const value = field(parent, name);
  if (value !== null && !SUBJECT_ID.test(value)) throw new InvalidNotification(`<${name}> is not a valid identifier`);
  return value;
}

function transactionFields(element: XmlElement): TransactionFields {
  const id = identifier(element, 'id');
  if (id === null) throw new InvalidNotification('The transaction has no <id>');
  return {
    id,
    status: field(element, 'status'),
    type: field(element, 'type'),
    amount: field(element, 'amount'),
    currencyIsoCode: field(element, 'currency-iso-code'),
    merchantAccountId: field(element, 'merchant-account-id'),
    refundedTransactionId: field(element, 'refunded-transaction-fk'),
  };
}

/** Decode the base64 payload (as verified) and read the notification; `InvalidNotification` for anything unusable. */
export function parseNotification(payload: string): Notification {
  const xml = Buffer.from(payload.replace(/\n/g, ''), 'base64').toString('utf8');
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (err) {
    if (err instanceof XmlError) throw new InvalidNotification(`The payload is not acceptable XML: ${err.message}`);
    throw err;
  }
  if (root.name !== 'notification') throw new InvalidNotification('The payload is not a <notification>');

  const kind = field(root, 'kind');
  if (kind === null || !KIND.test(kind)) throw new InvalidNotification('The notification has no valid <kind>');
  const rawTimestamp = field(root, 'timestamp');
  if (rawTimestamp === null || !DATETIME.test(rawTimestamp)) throw new InvalidNotification('The notification has no valid <timestamp>');
  const timestamp = new Date(rawTimestamp);
  if (Number.isNaN(timestamp.getTime())) throw new InvalidNotification('The notification has no valid <timestamp>');

  const subjectElement = childOf(root, 'subject');
  if (!subjectElement || subjectElement.children.length !== 1) throw new InvalidNotification('The notification needs exactly one subject');
  const inner = subjectElement.children[0]!;
  const transaction = inner.name === 'transaction' ? transactionFields(inner) : null;
  const id = transaction ? transaction.id : inner.children.length > 0 ? identifier(inner, 'id') : null;
  return {
    kind,
    timestamp,
    sourceMerchantId: field(root, 'source-merchant-id'),
    subject: { type: inner.name, id, transaction },
  };
}
