package shop;

public class Broken {
  public int size() {
    return missingField.length();
  }
}
