package io.github.lockjaw.engine.io;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;

/** The one Gson configuration lockjaw's files are read and written with. */
public final class Json {
  public static final Gson GSON =
      new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

  private Json() {}
}
