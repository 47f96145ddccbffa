package io.github.lockjaw.samples.shop.catalog;

import java.math.BigDecimal;
import java.util.Map;

/** The discount per product category, read on every price calculation, reloaded by the back office. */
public class PricingRules {

  private Map<String, BigDecimal> discounts = Map.of();

  /** The discounts now in force, by category. */
  public synchronized Map<String, BigDecimal> getDiscounts() {
    return discounts;
  }

  /** Replaces the discounts, when the back office publishes new ones. */
  public synchronized void reload(Map<String, BigDecimal> fresh) {
    discounts = Map.copyOf(fresh);
  }
}
