#include <string>

#include "trimm/types.hpp"

namespace trimm {

const char* to_string(Fill fill) { return fill == Fill::Upper ? "upper" : "lower"; }

const char* to_string(Precision precision) {
  switch (precision) {
    case Precision::Auto: return "auto";
    case Precision::Ieee: return "ieee";
    case Precision::Fp32: return "fp32";
    case Precision::Tf32: return "tf32";
  }
  return "?";
}

const char* to_string(Structure structure) {
  switch (structure) {
    case Structure::Triangular: return "triangular";
    case Structure::Detect: return "detect";
  }
  return "?";
}

Fill parse_fill(const std::string& text, const char* what) {
  if (text == "upper") return Fill::Upper;
  if (text == "lower") return Fill::Lower;
  throw InvalidArgument(std::string(what) + " = '" + text + "', expected 'upper' or 'lower'");
}

Precision parse_precision(const std::string& text, const char* what) {
  if (text == "auto") return Precision::Auto;
  if (text == "ieee") return Precision::Ieee;
  if (text == "fp32") return Precision::Fp32;
  if (text == "tf32") return Precision::Tf32;
  throw InvalidArgument(std::string(what) + " = '" + text +
                        "', expected 'auto', 'ieee', 'fp32' or 'tf32'");
}

}  // namespace trimm
