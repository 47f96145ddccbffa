package com.thoughtworks.xstream.fixed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.thoughtworks.xstream.converters.javabean.BeanProperty;
import com.thoughtworks.xstream.converters.javabean.PropertyDictionary;
import com.thoughtworks.xstream.converters.reflection.SerializationMethodInvoker;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * XStream 1.3.1's two caches behave as before once lockjaw:fix made their maps ConcurrentHashMaps:
 * the bean properties of a class are introspected once and handed out from the cache, also to 64
 * threads that ask at once (the double-checked lock still makes the fill exclusive); the
 * serialization methods are found, or remembered as missing, per class.
 */
class FixedSynchronizedMapCachesTest {
  public static class Account {
    private String owner;
    private long balance;

    public String getOwner() {
      return owner;
    }

    public void setOwner(String owner) {
      this.owner = owner;
    }

    public long getBalance() {
      return balance;
    }

    public void setBalance(long balance) {
      this.balance = balance;
    }

    public String getSummary() { // read-only: not serializable as a bean property
      return owner + balance;
    }
  }

  public static class Currency implements Serializable {
    static final Currency EURO = new Currency();

    private Object readResolve() {
      return EURO;
    }
  }

  public static class Ledger implements Serializable {
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
    }
  }

  public static class SubLedger extends Ledger {}

  @Test
  void beanPropertiesAreIntrospectedOnceAndShared() {
    PropertyDictionary dictionary = new PropertyDictionary();
    List<String> names = new ArrayList<>();
    for (Iterator<?> it = dictionary.serializablePropertiesFor(Account.class); it.hasNext(); ) {
      names.add(((BeanProperty) it.next()).getName());
    }
    assertEquals(Arrays.asList("balance", "owner"), names);
    assertSame(
        dictionary.property(Account.class, "owner"), dictionary.property(Account.class, "owner"));
  }

  @Test
  void threadsThatAskAtOnceGetTheSameProperty() throws Exception {
    PropertyDictionary dictionary = new PropertyDictionary();
    List<Object> answers = atOnce(() -> dictionary.property(Account.class, "balance"));
    for (Object answer : answers) {
      assertSame(answers.get(0), answer);
    }
  }

  @Test
  void serializationMethodsAreFoundOrRememberedAsMissing() throws Exception {
    SerializationMethodInvoker invoker = new SerializationMethodInvoker();
    assertSame(Currency.EURO, invoker.callReadResolve(new Currency()));
    assertSame(Currency.EURO, invoker.callReadResolve(new Currency())); // from the cache
    Account account = new Account();
    assertSame(account, invoker.callReadResolve(account)); // no readResolve: the sentinel
    assertSame(account, invoker.callReadResolve(account));
    assertTrue(invoker.supportsReadObject(Ledger.class, false));
    assertFalse(invoker.supportsReadObject(SubLedger.class, false));
    assertTrue(invoker.supportsReadObject(SubLedger.class, true));
    for (Object answer : atOnce(() -> invoker.callReadResolve(new Currency()))) {
      assertSame(Currency.EURO, answer);
    }
  }

  private static List<Object> atOnce(Callable<Object> question) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Object>> futures = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        futures.add(pool.submit(question));
      }
      List<Object> answers = new ArrayList<>();
      for (Future<Object> future : futures) {
        answers.add(future.get());
      }
      return answers;
    } finally {
      pool.shutdownNow();
    }
  }
}
