/** How preparation aggregates one column: what it counts distinct, groups by and selects DISTINCT, and its MIN and MAX (`NULL` where there are none). */
export interface AggregateForms {
  value: string;
  min: string;
  max: string;
}
