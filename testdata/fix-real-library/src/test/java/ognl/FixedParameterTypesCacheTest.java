package ognl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The fixed caches of OGNL 2.6.9's OgnlRuntime behave as before: the parameter types of a method or
 * constructor, computed once and then handed out from the cache, also to threads that ask at once.
 */
class FixedParameterTypesCacheTest {
  @Test
  void aMethodsParameterTypesAreComputedOnceAndShared() throws Exception {
    Method indexOf = String.class.getMethod("indexOf", String.class, int.class);
    Class[] first = OgnlRuntime.getParameterTypes(indexOf);
    assertArrayEquals(new Class[] {String.class, int.class}, first);
    assertSame(first, OgnlRuntime.getParameterTypes(indexOf));
  }

  @Test
  void aConstructorsParameterTypesAreComputedOnceAndShared() throws Exception {
    Constructor<StringBuilder> constructor = StringBuilder.class.getConstructor(String.class);
    Class[] first = OgnlRuntime.getParameterTypes(constructor);
    assertArrayEquals(new Class[] {String.class}, first);
    assertSame(first, OgnlRuntime.getParameterTypes(constructor));
  }

  @Test
  void threadsThatAskAtOnceGetTheSameArray() throws Exception {
    Method substring = String.class.getMethod("substring", int.class, int.class);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Class[]>> answers = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        answers.add(pool.submit(() -> OgnlRuntime.getParameterTypes(substring)));
      }
      Class[] first = answers.get(0).get();
      for (Future<Class[]> answer : answers) {
        assertSame(first, answer.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
