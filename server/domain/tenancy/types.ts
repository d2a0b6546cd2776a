/** An organization: the merchant that owns integrations (table `organizations`). */
export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly status: 'active' | 'inactive';
  readonly createdAt: Date;
}
