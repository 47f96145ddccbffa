package shop.model;

/** A product as the catalog shows it. */
public record Product(long id, String name) {}
