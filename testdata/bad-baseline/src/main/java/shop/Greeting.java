package shop;

/** Nothing for lockjaw to find. */
public record Greeting(String text) {}
