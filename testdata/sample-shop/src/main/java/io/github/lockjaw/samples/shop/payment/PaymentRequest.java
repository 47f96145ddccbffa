package io.github.lockjaw.samples.shop.payment;

import java.math.BigDecimal;

/** One charge against a customer's card, as the payment service expects it. */
public record PaymentRequest(String orderId, String cardToken, BigDecimal amount, String currency) {}
