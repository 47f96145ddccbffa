package shop;

/** Plain code: what fails is the class path, not the sources. */
public class Cart {
  private int items;

  public int add() {
    return ++items;
  }
}
